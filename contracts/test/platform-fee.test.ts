import { platformFee } from '@covenant/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { covenantEscrowAbi } from '../src/index.js';
import { type EscrowFixture, startEscrowFixture } from './escrow-fixture.js';

const MAX_UINT256 = 2n ** 256n - 1n;

/** A seeded xorshift64* generator, so a failure reproduces with the same amounts. */
function randomBigints(seed: bigint, count: number): bigint[] {
  let state = seed;
  const next64 = () => {
    state ^= state >> 12n;
    state ^= (state << 25n) & 0xffff_ffff_ffff_ffffn;
    state ^= state >> 27n;
    return (state * 0x2545f4914f6cdd1dn) & 0xffff_ffff_ffff_ffffn;
  };
  return Array.from({ length: count }, () => {
    // A random bit length first, so small, mid-sized and huge amounts are all well represented.
    const bits = Number(next64() % 257n);
    let value = 0n;
    for (let filled = 0; filled < bits; filled += 64) value = (value << 64n) | next64();
    return bits === 0 ? 0n : value & ((1n << BigInt(bits)) - 1n);
  });
}

describe("the escrow's fee against the domain's platformFee", () => {
  let fx: EscrowFixture;
  beforeAll(async () => {
    fx = await startEscrowFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  it('agrees on the edge amounts and on 3,000 random amounts up to 2^256 − 1', async () => {
    const escrow = fx.devnet.escrowImplementation;
    const edges = [0n, 1n, 9_999n, 10_000n, 10_001n, 19_999n, 20_000n, MAX_UINT256 - 1n, MAX_UINT256];
    const amounts = [...edges, ...randomBigints(0x5eed_c0ffee_2026n, 3_000)];
    // JSON-RPC batches of 500 calls (see the fixture's transport).
    const onChain = await Promise.all(
      amounts.map((amount) =>
        fx.publicClient.readContract({
          address: escrow,
          abi: covenantEscrowAbi,
          functionName: 'platformFee',
          args: [amount],
        }),
      ),
    );
    const mismatches = amounts.filter((amount, index) => onChain[index] !== platformFee(amount));
    expect(mismatches).toEqual([]);
    // The edges written out: below 10_000 base units there is no fee; 2^256 − 1 owes floor(that / 10^4).
    expect(onChain.slice(0, 5)).toEqual([0n, 0n, 0n, 1n, 1n]);
    expect(onChain[edges.length - 1]).toBe(MAX_UINT256 / 10_000n);
  });
});
