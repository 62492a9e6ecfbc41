/** Bitcoin Core's JSON-RPC error codes the adapter tells apart (bcoin answers with the same ones or -1). */
export const RPC_INVALID_ADDRESS_OR_KEY = -5;
export const RPC_INVALID_PARAMETER = -8;
export const RPC_VERIFY_ERROR = -25;
export const RPC_VERIFY_REJECTED = -26;
export const RPC_VERIFY_ALREADY_IN_CHAIN = -27;

/** An error answered by the node: the RPC method, its code and its message (never the credentials). */
export class BitcoinRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
  ) {
    super(`bitcoin RPC ${method} failed: ${rpcMessage} (code ${code})`);
    this.name = 'BitcoinRpcError';
  }
}

export interface BitcoinRpcOptions {
  rpcUrl: string;
  rpcUser?: string;
  rpcPassword?: string;
  /** Per call; 30 s without it. */
  timeoutMs?: number;
}

/** One call's own limits: `signal` cancels it; `timeoutMs` replaces the client's for a long poll. */
export interface BitcoinRpcCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type BitcoinRpc = <T>(
  method: string,
  params?: readonly unknown[],
  call?: BitcoinRpcCallOptions,
) => Promise<T>;

interface RpcReply {
  result?: unknown;
  error?: { code?: number; message?: string } | null;
}

/**
 * A client of Bitcoin Core's JSON-RPC (bcoin serves the same methods): one POST per call, basic
 * auth when credentials are given. Errors carry the RPC code and message; the URL is named without
 * its user info, so no secret ends up in a log.
 */
export function createBitcoinRpc(options: BitcoinRpcOptions): BitcoinRpc {
  const url = new URL(options.rpcUrl);
  const user = options.rpcUser ?? decodeURIComponent(url.username);
  const password = options.rpcPassword ?? decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  const endpoint = url.toString();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (user || password) {
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  let nextId = 1;

  return async <T>(
    method: string,
    params: readonly unknown[] = [],
    call: BitcoinRpcCallOptions = {},
  ): Promise<T> => {
    const id = nextId++;
    const timeout = AbortSignal.timeout(call.timeoutMs ?? timeoutMs);
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '1.0', id, method, params }),
        signal: call.signal ? AbortSignal.any([timeout, call.signal]) : timeout,
      });
    } catch (error) {
      throw new Error(
        `bitcoin RPC ${method} at ${endpoint} could not be reached: ${(error as Error).message}`,
      );
    }
    if (response.status === 401 || response.status === 403) {
      throw new Error(
        `bitcoin RPC ${method} at ${endpoint} refused the credentials (HTTP ${response.status})`,
      );
    }
    let reply: RpcReply;
    try {
      reply = (await response.json()) as RpcReply;
    } catch {
      throw new Error(`bitcoin RPC ${method} at ${endpoint} answered HTTP ${response.status} without JSON`);
    }
    if (reply.error) {
      throw new BitcoinRpcError(method, reply.error.code ?? -1, reply.error.message ?? 'unknown error');
    }
    return reply.result as T;
  };
}

/**
 * Null for the node's "no such transaction" (Bitcoin Core -5, bcoin -1 "Transaction not found");
 * any other failure (the node unreachable, refusing the credentials) is thrown.
 */
export function unknownToNull(error: unknown): null {
  if (error instanceof BitcoinRpcError) return null;
  throw error;
}
