import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BCOIN_REGTEST_NETWORK,
  BCOIN_REGTEST_SEGWIT_HEIGHT,
  type BitcoinRegtest,
  regtestOutputScript,
  startBitcoinRegtest,
} from './start-bitcoin-regtest.js';

let node: BitcoinRegtest;

async function rpc<T>(method: string, params: unknown[] = [], on: BitcoinRegtest = node): Promise<T> {
  const response = await fetch(on.rpcUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${on.rpcUser}:${on.rpcPassword}`).toString('base64')}`,
    },
    body: JSON.stringify({ id: 1, method, params }),
  });
  const reply = (await response.json()) as { result: T; error: { message: string } | null };
  if (reply.error) throw new Error(reply.error.message);
  return reply.result;
}

beforeAll(async () => {
  node = await startBitcoinRegtest();
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

describe('startBitcoinRegtest', () => {
  it('starts past segwit activation and refuses a caller without the API key', async () => {
    expect(node.network).toBe('regtest');
    expect(await rpc<number>('getblockcount')).toBeGreaterThanOrEqual(BCOIN_REGTEST_SEGWIT_HEIGHT);
    const info = await rpc<{ bip9_softforks: { segwit: { status: string } } }>('getblockchaininfo');
    expect(info.bip9_softforks.segwit.status).toBe('active');
    const anonymous = await fetch(node.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 1, method: 'getblockcount', params: [] }),
    });
    expect(anonymous.status).toBe(401);
  });

  it('mines blocks to an address', async () => {
    const before = await rpc<number>('getblockcount');
    const to = btc.p2wpkh(
      secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true),
      BCOIN_REGTEST_NETWORK,
    ).address as string;
    const hashes = await node.mine(2, to);
    expect(hashes).toHaveLength(2);
    expect(await rpc<number>('getblockcount')).toBe(before + 2);
  });

  it('funds an address from the dev wallet, and the transaction index answers for it once mined', async () => {
    const to = btc.p2wpkh(
      secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true),
      BCOIN_REGTEST_NETWORK,
    ).address as string;
    const txid = await node.fund(to, 123_456n);
    expect(await rpc<string[]>('getrawmempool')).toContain(txid);
    const [blockHash] = await node.mine(1);
    // Confirmed transactions leave the mempool, so this answer comes from the transaction index.
    const tx = await rpc<{ blockhash: string; vout: { value: number; scriptPubKey: { hex: string } }[] }>(
      'getrawtransaction',
      [txid, true],
    );
    expect(tx.blockhash).toBe(blockHash);
    const paid = tx.vout.find((output) => output.scriptPubKey.hex === regtestOutputScript(to));
    expect(paid?.value).toBe(0.00123456);
    // A second fund spends other coins (or the first one's change) without conflict.
    const again = await node.fund(to, 1_000n);
    expect(again).not.toBe(txid);
  });

  it('starts on a dataDir whose previous node is still closing (its parent just died), once the lock is free', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'covenant-bcoin-'));
    try {
      // A busy node (mining every 20 ms, paying out) takes a moment to close its chain: a server
      // restarted at once after a SIGKILL used to find LevelDB's lock still held and stop.
      const first = await startBitcoinRegtest({ dataDir, blockIntervalMs: 20 });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const to = btc.p2wpkh(
        secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true),
        BCOIN_REGTEST_NETWORK,
      ).address as string;
      for (let payments = 0; payments < 5; payments++) first.fund(to, 10_000n).catch(() => {});
      const height = await rpc<number>('getblockcount', [], first);
      const closing = first.stop();
      const second = await startBitcoinRegtest({ dataDir });
      try {
        expect(await rpc<number>('getblockcount', [], second)).toBeGreaterThanOrEqual(height);
      } finally {
        await second.stop();
        await closing;
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('mines on its own every blockIntervalMs, keeps its chain in dataDir across a restart, and funds from it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'covenant-bcoin-'));
    try {
      const first = await startBitcoinRegtest({ dataDir, blockIntervalMs: 100 });
      const started = await rpc<number>('getblockcount', [], first);
      let height = started;
      for (let tries = 0; tries < 100 && height < started + 3; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        height = await rpc<number>('getblockcount', [], first);
      }
      expect(height).toBeGreaterThanOrEqual(started + 3);
      // The block at that height, read before stopping (the miner may add more meanwhile).
      const block = await rpc<string>('getblockhash', [height], first);
      await first.stop();
      const second = await startBitcoinRegtest({ dataDir });
      try {
        expect(await rpc<string>('getblockhash', [height], second)).toBe(block);
        // On disk, the dev wallet finds its coins through the address index (a range query) too.
        const to = btc.p2wpkh(
          secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true),
          BCOIN_REGTEST_NETWORK,
        ).address as string;
        const txid = await second.fund(to, 123_456_789n);
        expect(await rpc<string[]>('getrawmempool', [], second)).toContain(txid);
      } finally {
        await second.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
