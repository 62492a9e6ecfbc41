import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { type Hex, toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { anvilBinaryPath } from './anvil-binary.js';

/** anvil's well-known development mnemonic: the devnet's accounts are the same on every start. */
export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';
export const DEVNET_CHAIN_ID = 31337;
/** Funded accounts (10,000 ETH each), derived from DEVNET_MNEMONIC at m/44'/60'/0'/0/i. */
export const DEVNET_ACCOUNT_COUNT = 10;

export interface Anvil {
  rpcUrl: string;
  chainId: number;
  /** Private keys of the funded accounts, in derivation order. */
  accounts: Hex[];
  stop(): Promise<void>;
}

/** The private key of the devnet mnemonic's account `index` (funded when index < DEVNET_ACCOUNT_COUNT). */
export function devnetPrivateKey(index: number): Hex {
  const key = mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: index }).getHdKey().privateKey;
  if (!key) throw new Error(`no private key for devnet account ${index}`);
  return toHex(key);
}

/**
 * Starts anvil on the given port or a free one and resolves once it answers `eth_chainId`.
 * anvil runs under a small shell that holds a pipe from this process: when this process exits in
 * any way (even SIGKILL) the pipe closes and the shell stops anvil, so no devnet outlives its owner.
 */
export async function startAnvil(
  options: {
    port?: number;
    host?: string;
    /**
     * Keeps the chain in this file: loaded at start when it exists, written every second and on
     * stop, so a restarted devnet continues where it left off.
     */
    stateFile?: string;
  } = {},
): Promise<Anvil> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await findFreePort(host));
  const args = [
    '--host',
    host,
    '--port',
    String(port),
    '--chain-id',
    String(DEVNET_CHAIN_ID),
    '--mnemonic',
    DEVNET_MNEMONIC,
    '--accounts',
    String(DEVNET_ACCOUNT_COUNT),
    '--silent',
    ...(options.stateFile ? ['--state', options.stateFile, '--state-interval', '1'] : []),
  ];
  // $0 is anvil. The shell exits with anvil; a background reader of the shell's stdin (kept as fd 3,
  // since background jobs get /dev/null) stops anvil when that pipe closes: stop() or this process's death.
  const script =
    'exec 3<&0; "$0" "$@" </dev/null & pid=$!; (cat <&3 >/dev/null; kill "$pid" 2>/dev/null) & wait "$pid"';
  const child = spawn('/bin/sh', ['-c', script, anvilBinaryPath(), ...args], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const rpcUrl = `http://${host}:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      await exited;
    }
  };
  try {
    await waitForChainId(rpcUrl, child, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    rpcUrl,
    chainId: DEVNET_CHAIN_ID,
    accounts: Array.from({ length: DEVNET_ACCOUNT_COUNT }, (_, index) => devnetPrivateKey(index)),
    stop,
  };
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

async function waitForChainId(rpcUrl: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`anvil exited (${child.exitCode}): ${stderr().trim()}`);
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      const body = (await response.json()) as { result?: string };
      if (body.result && Number(body.result) === DEVNET_CHAIN_ID) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`anvil did not answer at ${rpcUrl} within 15 s: ${stderr().trim()}`);
}
