import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hex } from '@scure/base';
import * as btc from '@scure/btc-signer';

/**
 * bcoin's regtest, which is not Bitcoin Core's: bech32 prefix `rb` (Core: `bcrt`), base58 versions
 * 0x3c / 0x26 (Core: 0x6f / 0xc4), WIF 0x5a. Read off bcoin 1.0.2's lib/protocol/networks.js and
 * checked against the running node (it refuses a `bcrt1` address as "Invalid address").
 */
export const BCOIN_REGTEST_NETWORK = { bech32: 'rb', pubKeyHash: 0x3c, scriptHash: 0x26, wif: 0x5a } as const;

/**
 * The height of the first block under segwit rules on bcoin's regtest: BIP 9 with 144-block windows,
 * started at 144, locked in at 288, active from 432 (seen with getblockchaininfo, which reports the
 * state for the block after the tip: `active` once the tip is 431). Start-up mines past it.
 */
export const BCOIN_REGTEST_SEGWIT_HEIGHT = 432;

/** How long a start waits for a previous node (of a process that died) to release its data directory. */
const lockWaitMs = 20_000;
/** Regtest coinbase outputs are spendable 100 blocks deep. */
const COINBASE_MATURITY = 100;
/** What the dev wallet pays per input and per transaction, generously above regtest's 1 sat/vB relay floor. */
const DEV_FEE_PER_INPUT = 200n;
const DEV_FEE_BASE = 200n;

/** The dev wallet's key, the same on every start (like anvil's mnemonic): P2WPKH, paid by the coinbases. */
export const BITCOIN_DEV_WALLET_KEY = sha256(new TextEncoder().encode('covenant bitcoin regtest dev wallet'));
export const BITCOIN_DEV_WALLET_ADDRESS = btc.p2wpkh(
  secp256k1.getPublicKey(BITCOIN_DEV_WALLET_KEY, true),
  BCOIN_REGTEST_NETWORK,
).address as string;

export interface BitcoinRegtest {
  rpcUrl: string;
  rpcUser: string;
  rpcPassword: string;
  network: 'regtest';
  /** Mines `blocks` blocks paying the coinbase to `toAddress` (the dev wallet by default); returns their hashes. */
  mine(blocks: number, toAddress?: string): Promise<string[]>;
  /** Pays `sats` to `address` from the dev wallet; resolves with the txid once the node's mempool holds it. */
  fund(address: string, sats: bigint): Promise<string>;
  /**
   * Sets the mempool's minimum relay fee in sat/vB (1 at start), as a filling mempool raises Bitcoin
   * Core's: getmempoolinfo's `mempoolminfee` reports it. Resolves once the node has it.
   */
  setMinRelayFee(satPerVb: bigint): Promise<void>;
  stop(): Promise<void>;
}

export interface BitcoinRegtestOptions {
  /** Keeps the chain in this directory (LevelDB); in memory without it. */
  dataDir?: string;
  /** The HTTP JSON-RPC port on 127.0.0.1; a free one without it. */
  port?: number;
  /** Mines a block every this many milliseconds (dev), none without it. */
  blockIntervalMs?: number;
}

interface RpcReply {
  result: unknown;
  error: { code: number; message: string } | null;
}

interface BcoinCoin {
  hash: string;
  index: number;
  value: number;
  height: number;
  coinbase: boolean;
  script: string;
}

/**
 * Starts a bcoin 1.0.2 regtest full node in a child process (transaction and address indexes on,
 * JSON-RPC on 127.0.0.1 behind an API key), mines past segwit activation to the dev wallet, and
 * resolves once the dev wallet has mature coins.
 */
export async function startBitcoinRegtest(options: BitcoinRegtestOptions = {}): Promise<BitcoinRegtest> {
  const host = '127.0.0.1';
  const port = options.port ?? (await findFreePort(host));
  const rpcUser = 'covenant';
  const rpcPassword = randomBytes(16).toString('hex');
  const rpcUrl = `http://${host}:${port}`;
  let stderr = '';
  const spawnNode = () => {
    const node = fork(fileURLToPath(new URL('./bcoin-regtest-node.cjs', import.meta.url)), [], {
      env: {
        ...process.env,
        NODE_BACKEND: 'js',
        COVENANT_BCOIN_OPTIONS: JSON.stringify({ dataDir: options.dataDir, port, apiKey: rpcPassword }),
      },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // The parent's loaders (tsx) are not needed by the plain CommonJS node.
      execArgv: [],
    });
    stderr = '';
    node.stderr?.setEncoding('utf8');
    node.stderr?.on('data', (chunk: string) => {
      // bcoin logs refused transactions here; only the latest lines are kept for error messages.
      stderr = (stderr + chunk).slice(-4000);
    });
    return { node, exited: new Promise<void>((resolve) => node.once('exit', () => resolve())) };
  };
  let { node: child, exited } = spawnNode();
  let miner: NodeJS.Timeout | undefined;
  const stop = async () => {
    if (miner) clearInterval(miner);
    if (child.exitCode === null && child.signalCode === null) {
      child.disconnect();
      await exited;
    }
  };
  const authorization = `Basic ${Buffer.from(`${rpcUser}:${rpcPassword}`).toString('base64')}`;
  const call = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
    });
    const reply = (await response.json()) as RpcReply;
    if (reply.error)
      throw new Error(`bitcoin regtest ${method}: ${reply.error.message} (${reply.error.code})`);
    return reply.result as T;
  };

  try {
    // The node of a process that just died (even by SIGKILL) closes its chain when its IPC channel
    // does, which takes a moment when it was busy: until then LevelDB's lock on dataDir refuses a
    // second node. A restart waits for it, up to lockWaitMs.
    const lockDeadline = Date.now() + lockWaitMs;
    for (;;) {
      try {
        await waitForReady(child, () => stderr);
        break;
      } catch (error) {
        const running = child.exitCode === null && child.signalCode === null;
        if (!options.dataDir || running || Date.now() > lockDeadline) throw error;
        // Its last words may arrive just after its exit.
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (!/IO error: lock/.test(`${(error as Error).message}\n${stderr}`)) throw error;
        ({ node: child, exited } = spawnNode());
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }

  const mine = async (blocks: number, toAddress = BITCOIN_DEV_WALLET_ADDRESS): Promise<string[]> => {
    // After invalidateblock, bcoin resets its mempool asynchronously and refuses to mine until it
    // has caught up with the tip ("Mempool/chain tip mismatch"): wait a moment and retry.
    for (let tries = 0; ; tries++) {
      try {
        return await call<string[]>('generatetoaddress', [blocks, toAddress]);
      } catch (error) {
        if (tries >= 100 || !/tip mismatch/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };

  // Serialized so two funds at once never pick the same coin.
  let fundTurn: Promise<unknown> = Promise.resolve();
  const fund = (address: string, sats: bigint): Promise<string> => {
    const work = async () => {
      const tip = await call<number>('getblockcount');
      const response = await fetch(`${rpcUrl}/coin/address/${BITCOIN_DEV_WALLET_ADDRESS}`, {
        headers: { authorization },
      });
      const coins = ((await response.json()) as BcoinCoin[])
        .filter((coin) => !coin.coinbase || (coin.height >= 0 && tip - coin.height + 1 >= COINBASE_MATURITY))
        .sort((a, b) => b.value - a.value);
      const tx = new btc.Transaction({ version: 2 });
      let gathered = 0n;
      let fee = DEV_FEE_BASE;
      const devScript = btc.OutScript.encode(
        btc.Address(BCOIN_REGTEST_NETWORK).decode(BITCOIN_DEV_WALLET_ADDRESS),
      );
      for (const coin of coins) {
        if (gathered >= sats + fee) break;
        tx.addInput({
          txid: coin.hash,
          index: coin.index,
          witnessUtxo: { script: devScript, amount: BigInt(coin.value) },
        });
        gathered += BigInt(coin.value);
        fee += DEV_FEE_PER_INPUT;
      }
      if (gathered < sats + fee) {
        throw new Error(`the dev wallet holds too little mature bitcoin to pay ${sats} sats`);
      }
      tx.addOutputAddress(address, sats, BCOIN_REGTEST_NETWORK);
      const change = gathered - sats - fee;
      if (change >= 1000n) tx.addOutputAddress(BITCOIN_DEV_WALLET_ADDRESS, change, BCOIN_REGTEST_NETWORK);
      tx.sign(BITCOIN_DEV_WALLET_KEY);
      tx.finalize();
      const txid = tx.id;
      await call('sendrawtransaction', [tx.hex]);
      // bcoin answers sendrawtransaction with the txid before its mempool has checked the
      // transaction, and also when the mempool refused it: wait until the mempool shows it.
      for (let tries = 0; tries < 100; tries++) {
        if ((await call<string[]>('getrawmempool')).includes(txid)) return txid;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(
        `the regtest node did not accept funding transaction ${txid}: ${stderr.slice(-500).trim()}`,
      );
    };
    const turn = fundTurn.then(work, work);
    fundTurn = turn.catch(() => {});
    return turn;
  };

  try {
    const height = await call<number>('getblockcount');
    // Past segwit, with enough coinbases mature for the dev wallet.
    const target = BCOIN_REGTEST_SEGWIT_HEIGHT + 10;
    if (height < target) await mine(target - height);
  } catch (error) {
    await stop();
    throw error;
  }
  if (options.blockIntervalMs) {
    miner = setInterval(() => {
      mine(1).catch(() => {});
    }, options.blockIntervalMs);
    miner.unref();
  }
  const setMinRelayFee = (satPerVb: bigint): Promise<void> => {
    if (satPerVb < 0n) throw new Error(`a relay fee is not negative: ${satPerVb}`);
    const satPerKvB = Number(satPerVb * 1000n);
    return new Promise((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if ((message as { minRelaySet?: unknown } | null)?.minRelaySet !== satPerKvB) return;
        child.off('message', onMessage);
        resolve();
      };
      child.on('message', onMessage);
      child.send({ minRelay: satPerKvB }, (error) => {
        if (!error) return;
        child.off('message', onMessage);
        reject(error);
      });
    });
  };
  return { rpcUrl, rpcUser, rpcPassword, network: 'regtest', mine, fund, setMinRelayFee, stop };
}

async function findFreePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function waitForReady(child: ChildProcess, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`bcoin did not start within 30 s: ${stderr().trim()}`)),
      30_000,
    );
    child.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bcoin exited (${code}): ${stderr().trim()}`));
    });
  });
}

/** The hex of a script paying `address` on bcoin's regtest (for tests that look for an output). */
export function regtestOutputScript(address: string): string {
  return hex.encode(btc.OutScript.encode(btc.Address(BCOIN_REGTEST_NETWORK).decode(address)));
}
