/**
 * The specification's gas buffer: every transaction the relayer sends carries the node's estimate
 * plus 20%. Estimates are exact for the state they ran on; the buffer covers a deposit or a block
 * landing between estimate and inclusion (an ETH payout's recipients may run code).
 */
export const GAS_BUFFER_PERCENT = 20n;

/** The gas limit for a call the node estimated at `estimate` gas: the estimate plus 20%, rounded up. */
export function gasLimitOf(estimate: bigint): bigint {
  return (estimate * (100n + GAS_BUFFER_PERCENT) + 99n) / 100n;
}
