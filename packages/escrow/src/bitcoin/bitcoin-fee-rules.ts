import { compactSizeLength } from '@covenant/domain';
import { type BitcoinRpc, BitcoinRpcError } from './bitcoin-rpc.js';

/** Bitcoin Core's default dust relay fee rate, in sat/vB. */
export const DUST_RELAY_FEE_RATE = 3n;

/**
 * Bitcoin Core's dust threshold (GetDustThreshold at the default 3 sat/vB dust relay fee): an
 * output is dust when spending it would cost more than it holds. Its size plus the size of the
 * input that spends it (67 vB for a witness program, 148 for the rest), times the rate: 294 sats
 * for P2WPKH, 330 for P2WSH and P2TR, 540 for P2SH, 546 for P2PKH.
 */
export function coreDustLimit(outputScript: Uint8Array): bigint {
  const outputSize = 8n + compactSizeLength(outputScript.length) + BigInt(outputScript.length);
  return (outputSize + (isWitnessProgram(outputScript) ? 67n : 148n)) * DUST_RELAY_FEE_RATE;
}

function isWitnessProgram(script: Uint8Array): boolean {
  if (script.length < 4 || script.length > 42) return false;
  const version = script[0]!;
  if (version !== 0x00 && (version < 0x51 || version > 0x60)) return false;
  return script[1]! + 2 === script.length;
}

/** Fee rates in whole sat/vB. */
export interface FeeRateBounds {
  floor: bigint;
  ceiling: bigint;
}

/** 1 BTC/kvB = 1e8 sat per 1000 vB = 1e5 sat/vB; a float from the node, rounded up after a tolerance for its last digit. */
function satPerVbOf(btcPerKvB: number): bigint {
  return BigInt(Math.ceil(btcPerKvB * 1e5 - 1e-6));
}

/**
 * The lowest fee rate the node relays now, in sat/vB rounded up: getmempoolinfo's `mempoolminfee`
 * (Bitcoin Core raises it as its mempool fills; bcoin reports its relay minimum) and, on Core, the
 * `minrelaytxfee` below which it relays nothing. Null when the node does not say.
 */
export async function nodeMinimumFeeRate(rpc: BitcoinRpc): Promise<bigint | null> {
  const info = await rpc<{ mempoolminfee?: number; minrelaytxfee?: number }>('getmempoolinfo');
  const rates = [info.mempoolminfee, info.minrelaytxfee].filter(
    (rate): rate is number => typeof rate === 'number' && Number.isFinite(rate) && rate > 0,
  );
  if (rates.length === 0) return null;
  return rates.map(satPerVbOf).reduce((highest, rate) => (rate > highest ? rate : highest));
}

/**
 * The fee rate a payout is built at, in sat/vB: the node's rate for confirmation within 2 blocks
 * (estimatesmartfee) rounded up, never below what the node relays now (`nodeMinimumFeeRate`: a
 * payout below it would wait, unsendable, for the parties' approval), clamped to the bounds. Bitcoin
 * Core answers `feerate` in BTC/kvB, or `errors` when it has no estimate yet; bcoin answers `fee`,
 * -1 without an estimate (always so on a fresh regtest): both fall back to the floor.
 */
export async function estimateFeeRate(rpc: BitcoinRpc, bounds: FeeRateBounds): Promise<bigint> {
  let btcPerKvB: number | undefined;
  try {
    const estimate = await rpc<{ feerate?: number; fee?: number }>('estimatesmartfee', [2]);
    btcPerKvB = estimate.feerate ?? estimate.fee;
  } catch (error) {
    // A node without fee estimation refuses the call; an unreachable node is an error.
    if (!(error instanceof BitcoinRpcError)) throw error;
    btcPerKvB = undefined;
  }
  const estimate =
    btcPerKvB === undefined || !Number.isFinite(btcPerKvB) || btcPerKvB <= 0 ? 0n : satPerVbOf(btcPerKvB);
  const minimum = (await nodeMinimumFeeRate(rpc)) ?? 0n;
  const satPerVb = estimate > minimum ? estimate : minimum;
  if (satPerVb < bounds.floor) return bounds.floor;
  return satPerVb > bounds.ceiling ? bounds.ceiling : satPerVb;
}
