import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, hex } from '@scure/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BITCOIN_ADDRESS_FORMATS } from './bitcoin-network.js';
import { BitcoinRpcError, createBitcoinRpc } from './bitcoin-rpc.js';
import { type BitcoinFixture, startBitcoinFixture } from './bitcoin-test-fixture.js';
import { multisigCustody } from './multisig-custody.js';
import { minimumDepositOutputSats } from './scan-bitcoin-deposits.js';

let fx: BitcoinFixture;

beforeAll(async () => {
  fx = await startBitcoinFixture();
});

afterAll(async () => {
  await fx?.stop();
});

// BIP 67's second test vector: three compressed keys, given here out of order.
const KEY_A = '02632b12f4ac5b1d1b72b2a3b508c19172de44f6f46bcee50ba33f3f9291e47ed0';
const KEY_B = '027735a29bae7780a9755fae7a1c4374c656ac6a69ea9f3697fda61bb99a4f3e77';
const KEY_C = '02e2cc6bd5f45edd43bebe7cb9b675f0ce9ed3efe613b177588290ad188d11b404';

describe('Bitcoin custody: the 2-of-3 P2WSH address of a leg', () => {
  it('sorts the keys per BIP 67 and pays the script hash, as computed by hand', async () => {
    const custody = multisigCustody(
      { buyer: KEY_C, seller: KEY_A, platform: KEY_B },
      BITCOIN_ADDRESS_FORMATS.regtest,
    );
    expect(custody.sortedKeys).toEqual([KEY_A, KEY_B, KEY_C]);
    // OP_2 <33 bytes> <33 bytes> <33 bytes> OP_3 OP_CHECKMULTISIG, keys in lexicographic order.
    const script = `52${[KEY_A, KEY_B, KEY_C].map((key) => `21${key}`).join('')}53ae`;
    expect(hex.encode(custody.witnessScript)).toBe(script);
    // P2WSH: witness version 0, program = SHA-256 of the script, bech32 with the network's prefix.
    const program = sha256(hex.decode(script));
    const byHand = bech32.encode('rb', [0, ...bech32.toWords(program)]);
    expect(custody.address).toBe(byHand);
    expect(custody.address).toBe('rb1qud6dmdcc27eg8s5hsy6a075gs49w65l6xtc4cplp6m2d4ggh43wqglm94g');
    expect(
      multisigCustody({ buyer: KEY_C, seller: KEY_A, platform: KEY_B }, BITCOIN_ADDRESS_FORMATS.mainnet)
        .address,
    ).toBe(bech32.encode('bc', [0, ...bech32.toWords(program)]));
    // The same keys in any roles give the same script: the order is the keys', not the roles'.
    expect(
      multisigCustody({ buyer: KEY_A, seller: KEY_B, platform: KEY_C }, BITCOIN_ADDRESS_FORMATS.regtest)
        .address,
    ).toBe(custody.address);
  });

  it('refuses keys that are not three distinct valid compressed points', () => {
    const regtest = BITCOIN_ADDRESS_FORMATS.regtest;
    expect(() => multisigCustody({ buyer: KEY_A, seller: KEY_B, platform: KEY_A }, regtest)).toThrow(
      /three distinct/,
    );
    // x = 5 is not the x of a curve point.
    const offCurve = `02${'0'.repeat(63)}5`;
    expect(() => multisigCustody({ buyer: offCurve, seller: KEY_B, platform: KEY_C }, regtest)).toThrow(
      /buyer's Bitcoin key must be a compressed/,
    );
    expect(() =>
      multisigCustody({ buyer: KEY_A, seller: `04${KEY_B.slice(2)}`, platform: KEY_C }, regtest),
    ).toThrow(/seller's Bitcoin key/);
    expect(() =>
      multisigCustody({ buyer: KEY_A, seller: KEY_B, platform: KEY_C.toUpperCase() }, regtest),
    ).toThrow(/platform's Bitcoin key/);
  });

  it("opens a leg with the platform's child key and returns the custody that recomputes the address", async () => {
    const { leg, opened } = await fx.openLeg();
    expect(opened.txRef).toBeNull();
    expect(opened.custody.public_keys).toEqual(leg.signers);
    expect(leg.signers.platform).toBe(await fx.platformKey.publicKey(leg.platformKeyIndex));
    expect(leg.signers.platform).not.toBe(await fx.platformKey.publicKey(leg.platformKeyIndex + 1));
    expect(await fx.bitcoin.depositAddress({ ...leg, dealId: 'any' })).toBe(opened.depositAddress);
  });
});

describe('Bitcoin deposits: scanning blocks and the mempool', () => {
  it('shows a mempool deposit as pending, then finds two deposits in blocks, one index query per block', async () => {
    const { leg } = await fx.openLeg();
    const other = await fx.openLeg();
    const index = fx.indexOf([leg, other.leg]);
    const first = await fx.deposit(leg.depositAddress, 6_000_000n);
    const pending = await fx.bitcoin.scanMempool!(index);
    expect(pending).toEqual([
      expect.objectContaining({
        txRef: first.txRef,
        position: first.position,
        amount: 6_000_000n,
        from: null,
        tokenAddress: null,
      }),
    ]);
    expect(pending[0]!.watched.escrowId).toBe(leg.escrowId);

    const from = (await fx.bitcoin.currentHeight()) + 1n;
    await fx.node.mine(1);
    const second = await fx.deposit(leg.depositAddress, 4_000_000n);
    await fx.node.mine(1);
    const to = await fx.bitcoin.currentHeight();
    index.queries.length = 0;
    const scan = await fx.bitcoin.scanDeposits({ fromHeight: from, toHeight: to }, index);
    expect(scan.scannedTo).toBe(to);
    expect(index.queries).toHaveLength(2);
    expect(
      scan.movements.map((movement) => [movement.txRef, movement.position, movement.amount, movement.height]),
    ).toEqual([
      [first.txRef, first.position, 6_000_000n, from],
      [second.txRef, second.position, 4_000_000n, from + 1n],
    ]);
    expect(scan.movements.reduce((sum, movement) => sum + movement.amount, 0n)).toBe(10_000_000n);
    expect(scan.movements[0]!.blockRef).toBe(await fx.bitcoin.blockRefAt(from));
    expect(await fx.bitcoin.scanMempool!(index)).toEqual([]);
  });

  it('leaves outputs below 0.0001 BTC uncounted, in the mempool and in blocks', async () => {
    const { leg } = await fx.openLeg();
    const index = fx.indexOf([leg]);
    const from = (await fx.bitcoin.currentHeight()) + 1n;
    // 9 999 sats and 330 sats (P2WSH dust) are not deposits; 10 000 sats is.
    await fx.deposit(leg.depositAddress, minimumDepositOutputSats - 1n);
    await fx.deposit(leg.depositAddress, 330n);
    const counted = await fx.deposit(leg.depositAddress, minimumDepositOutputSats);
    expect((await fx.bitcoin.scanMempool!(index)).map((deposit) => deposit.txRef)).toEqual([counted.txRef]);
    await fx.node.mine(1);
    const scan = await fx.bitcoin.scanDeposits({ fromHeight: from, toHeight: from }, index);
    expect(scan.movements.map((movement) => [movement.txRef, movement.amount])).toEqual([
      [counted.txRef, 10_000n],
    ]);
  });

  it('counts confirmations from the mempool to final at 2, and follows a reorg (invalidateblock, reconsiderblock)', async () => {
    const { leg } = await fx.openLeg();
    expect(await fx.bitcoin.confirmations('00'.repeat(32))).toEqual({ state: 'unknown' });
    const deposit = await fx.deposit(leg.depositAddress, 5_000_000n);
    expect(await fx.bitcoin.confirmations(deposit.txRef)).toEqual({ state: 'mempool' });
    const [blockHash] = await fx.node.mine(1);
    const height = await fx.bitcoin.currentHeight();
    expect(await fx.bitcoin.confirmations(deposit.txRef)).toEqual({
      state: 'included',
      blockRef: blockHash,
      height,
      confirmations: 1,
      final: false,
    });
    await fx.node.mine(1);
    expect(await fx.bitcoin.confirmations(deposit.txRef)).toMatchObject({ confirmations: 2, final: true });

    // The deposit's block leaves the best chain (invalidateblock: the devnet makes bcoin put the
    // block's transactions back in its mempool, as Bitcoin Core does): the deposit is pending again,
    // the height is empty until a new block, and the new block at that height holds the deposit.
    const original = [blockHash!, await fx.bitcoin.blockRefAt(height + 1n)];
    const rawBlocks = await Promise.all(original.map((hash) => fx.rpc<string>('getblock', [hash, 0])));
    await fx.rpc('invalidateblock', [blockHash]);
    expect(await fx.bitcoin.currentHeight()).toBe(height - 1n);
    expect(await fx.bitcoin.blockRefAt(height)).toBeNull();
    expect(await fx.bitcoin.confirmations(deposit.txRef)).toEqual({ state: 'mempool' });
    const [replacement] = await fx.node.mine(1);
    expect(replacement).not.toBe(blockHash);
    expect(await fx.bitcoin.blockRefAt(height)).toBe(replacement);
    expect(await fx.bitcoin.confirmations(deposit.txRef)).toMatchObject({
      state: 'included',
      blockRef: replacement,
      confirmations: 1,
      final: false,
    });
    const index = fx.indexOf([leg]);
    const moved = await fx.bitcoin.scanDeposits({ fromHeight: height, toHeight: height }, index);
    expect(moved.movements.map((movement) => movement.blockRef)).toEqual([replacement]);

    // reconsiderblock lifts the invalid mark (bcoin forgot the blocks, so they are sent again):
    // the original chain is longer, the node reorganizes back to it and the deposit is 2 deep again.
    await fx.rpc('reconsiderblock', [blockHash]);
    for (const raw of rawBlocks) await fx.rpc('submitblock', [raw]);
    expect(await fx.bitcoin.blockRefAt(height)).toBe(blockHash);
    expect(await fx.bitcoin.confirmations(deposit.txRef)).toEqual({
      state: 'included',
      blockRef: blockHash,
      height,
      confirmations: 2,
      final: true,
    });
    const rescan = await fx.bitcoin.scanDeposits({ fromHeight: height, toHeight: height }, index);
    expect(rescan.movements.map((movement) => [movement.txRef, movement.blockRef])).toEqual([
      [deposit.txRef, blockHash],
    ]);
  });
});

describe('Bitcoin JSON-RPC client', () => {
  it("carries the node's error code and message, and never the credentials", async () => {
    const rpc = createBitcoinRpc(fx.node);
    const error = await rpc('getblockhash', [99_999_999]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BitcoinRpcError);
    expect(error).toMatchObject({ method: 'getblockhash', code: -8 });
    const url = new URL(fx.node.rpcUrl);
    url.username = 'covenant';
    url.password = 'not-the-key';
    const refused = await createBitcoinRpc({ rpcUrl: url.toString() })<number>('getblockcount').then(
      () => new Error('answered'),
      (caught: unknown) => caught as Error,
    );
    expect(refused.message).toMatch(/refused the credentials \(HTTP 401\)/);
    expect(refused.message).not.toContain('not-the-key');
    expect(
      await createBitcoinRpc({
        rpcUrl: fx.node.rpcUrl.replace('http://', `http://u:${fx.node.rpcPassword}@`),
      })('getblockcount'),
    ).toBeGreaterThan(400);
  });
});
