/**
 * The size arithmetic of Bitcoin segwit transactions that the server sets a payout's network fee by
 * and the browser checks that fee against before it signs: one formula for both.
 */

/** Bytes of a CompactSize integer (a count or a length) holding `value`. */
export function compactSizeLength(value: number): bigint {
  if (value < 0xfd) return 1n;
  if (value <= 0xffff) return 3n;
  return value <= 0xffffffff ? 5n : 9n;
}

/** Weight units of a 2-of-3 P2WSH input's witness: item count, the empty item, two signatures of at most 73 bytes with their lengths, the script with its length. */
export function multisigInputWitnessWeight(witnessScriptLength: number): bigint {
  return 1n + 1n + 2n * (1n + 73n) + compactSizeLength(witnessScriptLength) + BigInt(witnessScriptLength);
}

/** A P2WPKH input's witness: item count, a signature of at most 73 bytes, a 33-byte key, with lengths. */
export const P2WPKH_INPUT_WITNESS_WEIGHT = 1n + 1n + 73n + 1n + 33n;

/**
 * The virtual size of a segwit transaction with these inputs and outputs, signatures at their
 * largest: its non-witness bytes count four weight units, witness bytes one, and the vsize is the
 * weight divided by 4, rounded up.
 */
export function estimateVsize(
  inputWitnessWeights: readonly bigint[],
  outputScripts: readonly Uint8Array[],
): bigint {
  const outputBytes = outputScripts.reduce(
    (sum, script) => sum + 8n + compactSizeLength(script.length) + BigInt(script.length),
    0n,
  );
  const base =
    4n +
    compactSizeLength(inputWitnessWeights.length) +
    // Each input: previous txid and vout, an empty scriptSig, the sequence.
    BigInt(inputWitnessWeights.length) * (32n + 4n + 1n + 4n) +
    compactSizeLength(outputScripts.length) +
    outputBytes +
    4n;
  const witness = 2n + inputWitnessWeights.reduce((sum, weight) => sum + weight, 0n);
  return (base * 4n + witness + 3n) / 4n;
}
