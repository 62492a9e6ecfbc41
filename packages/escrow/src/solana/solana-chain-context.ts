import { base64 } from '@scure/base';
import { address } from '@solana/kit';
import type { ConfirmationPolicy } from '../chain-adapter.js';
import type { SolanaPlatformKey } from './platform-solana-key.js';
import type { SolanaMint } from './solana-escrow-chain.js';
import { READ_COMMITMENT, type SolanaRpc } from './solana-rpc.js';

/** What the adapter's parts share: the node, the keys, the fee address, the policy and the tokens. */
export interface SolanaChainContext {
  rpc: SolanaRpc;
  platformKey: SolanaPlatformKey;
  feeAddress: string;
  policy: ConfirmationPolicy;
  /** The commitment of blocks that count under the policy: `finalized`, or `confirmed` for a depth. */
  blockCommitment: 'finalized' | 'confirmed';
  /** The token of a mint address; undefined for a mint the platform does not trade. */
  mintOf(mint: string): SolanaMint | undefined;
  /** The rent-exempt minimum of an account of `space` bytes (asked once per size). */
  rentExempt(space: number): Promise<bigint>;
  confirmTimeoutMs: number;
}

/** An account as the node holds it. */
export interface RawAccount {
  lamports: bigint;
  owner: string;
  data: Uint8Array;
}

/** The accounts at `addresses` (null where none exists), read in one call. */
export async function readAccounts(
  rpc: SolanaRpc,
  addresses: readonly string[],
): Promise<(RawAccount | null)[]> {
  const { value } = await rpc
    .getMultipleAccounts(
      addresses.map((account) => address(account)),
      { encoding: 'base64', commitment: READ_COMMITMENT },
    )
    .send();
  return value.map((account) =>
    account
      ? { lamports: BigInt(account.lamports), owner: account.owner, data: base64.decode(account.data[0]) }
      : null,
  );
}

/** JSON with bigints written as numbers' digits: for errors and logs the node returned. */
export function stringifyWithBigInts(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item));
}
