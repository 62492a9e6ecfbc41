/**
 * The parts of a transaction in the node's `json` encoding (getBlock, getTransaction) the adapter
 * reads. u64 values arrive as bigint (the kit client parses them so).
 */
export interface JsonTokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string };
}

export interface JsonTransactionMeta {
  err: unknown;
  preBalances: readonly bigint[];
  postBalances: readonly bigint[];
  preTokenBalances?: readonly JsonTokenBalance[] | null;
  postTokenBalances?: readonly JsonTokenBalance[] | null;
  loadedAddresses?: { writable: readonly string[]; readonly: readonly string[] } | null;
}

export interface JsonTransaction {
  meta: JsonTransactionMeta | null;
  transaction: {
    signatures: readonly string[];
    message: {
      accountKeys: readonly string[];
      instructions: readonly { programIdIndex: number; accounts: readonly number[]; data: string }[];
    };
  };
}

/** Every account of the transaction in balance order: its static keys, then those loaded from lookup tables. */
export function accountKeysOf(tx: JsonTransaction): string[] {
  const loaded = tx.meta?.loadedAddresses;
  return [...tx.transaction.message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
}

/** The token amount an account held before or after the transaction (0 when it had no token balance). */
export function tokenAmountAt(
  balances: readonly JsonTokenBalance[] | null | undefined,
  accountIndex: number,
) {
  const balance = balances?.find((entry) => entry.accountIndex === accountIndex);
  return { amount: balance ? BigInt(balance.uiTokenAmount.amount) : 0n, balance };
}
