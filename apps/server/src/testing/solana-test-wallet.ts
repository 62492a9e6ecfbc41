import { randomBytes } from 'node:crypto';
import { type SolanaDevnet, startSolanaDevnet } from '@covenant/devnets';
import { associatedTokenAccount } from '@covenant/escrow/solana';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64 } from '@scure/base';
import type { SolanaChainInfo } from '../chains/chain-registry.js';
import { localnetChainInfo } from '../chains/start-solana-chain.js';

/** A party's Solana side in an escrow test: its escrow key, and fresh wallets it is paid at. */
export interface SolanaPartyWallet {
  /** The escrow key (32 random bytes); its address is registered with wallets/connect. */
  privateKey: Uint8Array;
  address: string;
  /** Addresses of other random keys, empty at the start. */
  payoutAddress: string;
  refundAddress: string;
}

/** The address (base58 ed25519 public key) of a fresh random key nobody keeps. */
export function freshSolanaAddress(): string {
  return base58.encode(ed25519.getPublicKey(randomBytes(32)));
}

export function solanaPartyWallet(): SolanaPartyWallet {
  const privateKey = new Uint8Array(randomBytes(32));
  return {
    privateKey,
    address: base58.encode(ed25519.getPublicKey(privateKey)),
    payoutAddress: freshSolanaAddress(),
    refundAddress: freshSolanaAddress(),
  };
}

/** Signs a payout's message (base64, as `signing_payload.data` carries it) as the browser does: base58. */
export function signSolanaMessage(messageBase64: string, privateKey: Uint8Array): string {
  return base58.encode(ed25519.sign(base64.decode(messageBase64), privateKey));
}

/** The local Solana devnet of an escrow test, in memory, with what the tests read from it. */
export interface SolanaTestNode {
  devnet: SolanaDevnet;
  /** The chain's registry entry (its fee address is filled in when the app builds its chains). */
  info: SolanaChainInfo;
  /** Lamports at an address (0 when no account is there). */
  lamports(address: string): Promise<bigint>;
  /** Base units of `symbol` held by the associated token account of `owner` (0 without one). */
  tokens(symbol: 'USDC' | 'USDT', owner: string): Promise<bigint>;
  /** Whether an account exists at the address. */
  exists(address: string): Promise<boolean>;
  /** Pays a deposit: native SOL (`symbol` SOL) or a token, from the devnet's faucet, to `to`; the signature once landed. */
  pay(symbol: 'SOL' | 'USDC' | 'USDT', to: string, amount: bigint): Promise<string>;
  rpc<T>(method: string, params: unknown[]): Promise<T>;
}

/** Starts the local Solana devnet in memory (a slot every 40 ms) and its registry entry. */
export async function startSolanaTestNode(confirmations: number): Promise<SolanaTestNode> {
  const devnet = await startSolanaDevnet({ slotIntervalMs: 40 });
  const info = localnetChainInfo(devnet, { confirmations, feeAddress: undefined });
  const rpc = async <T>(method: string, params: unknown[]): Promise<T> => {
    const response = await fetch(devnet.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const reply = (await response.json()) as { result: T; error?: { message: string } };
    if (reply.error) throw new Error(`${method}: ${reply.error.message}`);
    return reply.result;
  };
  const mintOf = (symbol: 'USDC' | 'USDT') => devnet.mints[symbol];
  return {
    devnet,
    info,
    rpc,
    async lamports(address) {
      const reply = await rpc<{ value: number }>('getBalance', [address, { commitment: 'processed' }]);
      return BigInt(reply.value);
    },
    async tokens(symbol, owner) {
      const account = await associatedTokenAccount(owner, mintOf(symbol));
      const info = await rpc<{ value: unknown }>('getAccountInfo', [
        account,
        { encoding: 'base64', commitment: 'processed' },
      ]);
      if (info.value === null) return 0n;
      const balance = await rpc<{ value: { amount: string } }>('getTokenAccountBalance', [
        account,
        { commitment: 'processed' },
      ]);
      return BigInt(balance.value.amount);
    },
    async exists(address) {
      const reply = await rpc<{ value: unknown }>('getAccountInfo', [
        address,
        { encoding: 'base64', commitment: 'processed' },
      ]);
      return reply.value !== null;
    },
    pay: (symbol, to, amount) =>
      symbol === 'SOL'
        ? devnet.faucet.fundSol(to, amount)
        : devnet.faucet.fundToken(to, mintOf(symbol), amount),
  };
}
