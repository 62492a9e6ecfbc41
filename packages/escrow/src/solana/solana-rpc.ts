import { createSolanaRpc, isSolanaError, type Rpc, type SolanaRpcApi } from '@solana/kit';

export type SolanaRpc = Rpc<SolanaRpcApi>;

/** JSON-RPC server errors the adapter tells apart (the codes of Agave's RPC). */
export const RPC_BLOCK_NOT_AVAILABLE = -32004;
export const RPC_SLOT_SKIPPED = -32007;
export const RPC_LONG_TERM_STORAGE_SLOT_SKIPPED = -32009;

/** Every read sees what the cluster has confirmed; finality decisions ask for `finalized` explicitly. */
export const READ_COMMITMENT = 'confirmed' as const;

/** A client of the node's HTTP JSON-RPC (u64 values come back as bigint). */
export function createSolanaRpcClient(rpcUrl: string): SolanaRpc {
  return createSolanaRpc(rpcUrl);
}

/** The JSON-RPC error code of a failed call, null when the failure was not the node's answer. */
export function rpcErrorCode(error: unknown): number | null {
  if (!isSolanaError(error)) return null;
  const code = (error.context as { __code?: unknown }).__code;
  return typeof code === 'number' && code < 0 ? code : null;
}

/** A failed call's reason, with the transaction error and program logs the node returned. */
export function describeRpcError(error: unknown): string {
  if (!isSolanaError(error)) return (error as Error).message;
  const context = error.context as { __serverMessage?: string; logs?: unknown };
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const logs =
    Array.isArray(context.logs) && context.logs.length > 0 ? `; logs: ${context.logs.join(' | ')}` : '';
  return `${context.__serverMessage ?? error.message}${cause}${logs}`;
}
