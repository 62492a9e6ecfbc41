import { describe, expect, it } from 'vitest';
import {
  compactSizeLength,
  estimateVsize,
  multisigInputWitnessWeight,
  P2WPKH_INPUT_WITNESS_WEIGHT,
} from './bitcoin-vsize.js';

const p2wpkhScript = new Uint8Array(22);
const p2wshScript = new Uint8Array(34);

describe('estimateVsize', () => {
  it('sizes one 2-of-3 P2WSH input paying two P2WPKH outputs, the arithmetic written out', () => {
    // The witness script: OP_2, three 33-byte keys with their push bytes, OP_3, OP_CHECKMULTISIG.
    const witnessScriptLength = 1 + 3 * 34 + 1 + 1;
    expect(witnessScriptLength).toBe(105);
    // Witness: item count 1 + empty item 1 + 2 × (1 + 73) + length 1 + script 105 = 256 weight units.
    expect(multisigInputWitnessWeight(witnessScriptLength)).toBe(256n);
    // Base bytes: version 4 + input count 1 + input 41 + output count 1 + 2 × (8 + 1 + 22) + locktime 4 = 113.
    // Weight: 113 × 4 + marker and flag 2 + 256 = 710; vsize 710 / 4 = 177.5, rounded up to 178.
    expect(estimateVsize([256n], [p2wpkhScript, p2wpkhScript])).toBe(178n);
  });

  it('sizes P2WPKH inputs and a P2WSH output', () => {
    // Witness per input: 1 + 1 + 73 + 1 + 33 = 109.
    expect(P2WPKH_INPUT_WITNESS_WEIGHT).toBe(109n);
    // Base: 4 + 1 + 2 × 41 + 1 + (8 + 1 + 34) + 4 = 135; weight 135 × 4 + 2 + 2 × 109 = 760; vsize 190.
    expect(estimateVsize([109n, 109n], [p2wshScript])).toBe(190n);
  });

  it('counts CompactSize lengths at their boundaries', () => {
    expect([0xfc, 0xfd, 0xffff, 0x10000, 0xffffffff, 0x100000000].map(compactSizeLength)).toEqual([
      1n,
      3n,
      3n,
      5n,
      5n,
      9n,
    ]);
  });
});
