import { ed25519 } from '@noble/curves/ed25519';
import { type APIRequestContext, expect } from '@playwright/test';
import { base58 } from '@scure/base';
import { address } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';

/** What the tests read of the server's local Solana devnet (`GET /api/v1/chains`'s SOL entry). */
export interface SolanaDevnet {
  rpcUrl: string;
  feeAddress: string;
  confirmations: number;
  /** Mints by symbol (SOL itself, with no mint, is left out). */
  mints: Record<string, string>;
  /** Calls the devnet's Solana JSON-RPC; throws with the node's message on an error reply. */
  rpc<T>(method: string, params?: unknown[]): Promise<T>;
}

type ChainsResponse = {
  data: {
    chain: string;
    network?: string;
    fee_address: string;
    confirmations: number | string;
    rpc_url?: string;
    tokens: { symbol: string; address: string | null }[];
  }[];
};

/** A JSON-RPC error reply of the Solana node. */
export class SolanaRpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`solana ${method}: ${message} (${code})`);
  }
}

/** The Solana devnet the test server started, read from its public chain list. */
export async function solanaDevnet(request: APIRequestContext): Promise<SolanaDevnet> {
  const response = await request.get('/api/v1/chains');
  expect(response.status()).toBe(200);
  const solana = ((await response.json()) as ChainsResponse).data.find((chain) => chain.chain === 'SOL');
  if (!solana?.rpc_url) throw new Error('the test server runs no Solana devnet');
  expect(solana.network).toBe('localnet');
  const mints: Record<string, string> = {};
  for (const token of solana.tokens) {
    if (token.address) mints[token.symbol] = token.address;
  }
  const rpcUrl = solana.rpc_url;
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const reply = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await reply.json()) as { result: T; error?: { code: number; message: string } };
    if (body.error) throw new SolanaRpcError(method, body.error.code, body.error.message);
    return body.result;
  };
  return {
    rpcUrl,
    feeAddress: solana.fee_address,
    confirmations: Number(solana.confirmations),
    mints,
    rpc,
  };
}

/**
 * A fresh Solana wallet address: the base58 ed25519 public key of a random key. Whatever it holds
 * later came from the test.
 */
export function randomSolanaAddress(): string {
  return base58.encode(ed25519.getPublicKey(ed25519.utils.randomPrivateKey()));
}

/** An account's lamports (0 for an account that does not exist). */
export async function lamports(devnet: SolanaDevnet, account: string): Promise<bigint> {
  const { value } = await devnet.rpc<{ value: number }>('getBalance', [account, { commitment: 'confirmed' }]);
  return BigInt(value);
}

/** The associated token account of `owner` for the devnet token `symbol`, as the SPL programs derive it. */
export async function associatedTokenAccount(devnet: SolanaDevnet, symbol: string, owner: string) {
  const mint = devnet.mints[symbol];
  if (!mint) throw new Error(`the devnet has no ${symbol}`);
  const [ata] = await findAssociatedTokenPda({
    owner: address(owner),
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
    mint: address(mint),
  });
  return ata as string;
}

/**
 * `owner`'s balance of `symbol` in its associated token account, in base units; null when that
 * account does not exist (the wallet never held the token).
 */
export async function tokenBalance(
  devnet: SolanaDevnet,
  symbol: string,
  owner: string,
): Promise<bigint | null> {
  const ata = await associatedTokenAccount(devnet, symbol, owner);
  try {
    const { value } = await devnet.rpc<{ value: { amount: string } }>('getTokenAccountBalance', [
      ata,
      { commitment: 'confirmed' },
    ]);
    return BigInt(value.amount);
  } catch (error) {
    if (error instanceof SolanaRpcError && /could not find account/.test(error.message)) return null;
    throw error;
  }
}

/** An SPL Token multisig account as the chain holds it (jsonParsed). */
export async function splMultisig(
  devnet: SolanaDevnet,
  account: string,
): Promise<{ numRequiredSigners: number; numValidSigners: number; signers: string[] }> {
  const { value } = await devnet.rpc<{
    value: { owner: string; data: { parsed: { type: string; info: Record<string, unknown> } } } | null;
  }>('getAccountInfo', [account, { encoding: 'jsonParsed', commitment: 'confirmed' }]);
  if (!value) throw new Error(`no account ${account} on the devnet`);
  expect(value.owner).toBe(TOKEN_PROGRAM_ADDRESS);
  expect(value.data.parsed.type).toBe('multisig');
  return value.data.parsed.info as { numRequiredSigners: number; numValidSigners: number; signers: string[] };
}

/** Whether an account exists on the devnet. */
export async function accountExists(devnet: SolanaDevnet, account: string): Promise<boolean> {
  const { value } = await devnet.rpc<{ value: unknown }>('getAccountInfo', [
    account,
    { encoding: 'base64', commitment: 'confirmed' },
  ]);
  return value !== null;
}
