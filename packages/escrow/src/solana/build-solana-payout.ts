import { base64 } from '@scure/base';
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  type Instruction,
  type Nonce,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingDurableNonce,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import type { SettlementPlan } from '../settlement-plan.js';
import { associatedTokenAccount } from './solana-leg-accounts.js';
import type { SolanaSigningPayload } from './solana-payout.js';

export interface SolanaPayoutInput {
  plan: SettlementPlan;
  /** The leg's token account (the deposit address) and the multisig that owns it. */
  tokenAccount: string;
  multisig: string;
  /** The token's mint and decimals; null for a SOL leg (a wSOL account paid out as lamports). */
  token: { mint: string; decimals: number } | null;
  nonceAccount: string;
  /** The nonce account's current value: the message's lifetime. */
  nonceValue: string;
  relayer: string;
  /** The party signing with the platform (2 of the multisig's 3). */
  party: string;
  platform: string;
}

/**
 * The legacy message carrying out `plan`, fee payer the relayer, lifetime the leg's durable nonce:
 * AdvanceNonceAccount, then for a token leg one idempotent ATA creation per distinct recipient,
 * one TransferChecked per transfer (plan order) signed by the multisig's party and platform keys
 * and the token account closed to the relayer (its rent back; it fails if a deposit raced in),
 * except after a travel payout, which pays part of the leg and leaves the account open;
 * for a SOL leg the wSOL account closed to the relayer first, then one system transfer per
 * transfer from the relayer, which keeps exactly the rent.
 */
export async function buildSolanaPayoutMessage(
  input: SolanaPayoutInput,
): Promise<{ messageBytes: Uint8Array; signingPayload: SolanaSigningPayload }> {
  const relayer = createNoopSigner(address(input.relayer));
  const multiSigners = [createNoopSigner(address(input.party)), createNoopSigner(address(input.platform))];
  const tokenAccount = address(input.tokenAccount);
  const multisig = address(input.multisig);
  const close = getCloseAccountInstruction({
    account: tokenAccount,
    destination: relayer.address,
    owner: multisig,
    multiSigners,
  });
  const instructions: Instruction[] = [];
  const { token } = input;
  if (token) {
    const mint = address(token.mint);
    const recipients = [...new Set(input.plan.transfers.map((transfer) => transfer.to))];
    const ataOf = new Map<string, Address>();
    for (const owner of recipients) {
      const ata = address(await associatedTokenAccount(owner, token.mint));
      ataOf.set(owner, ata);
      instructions.push(
        getCreateAssociatedTokenIdempotentInstruction({ payer: relayer, ata, owner: address(owner), mint }),
      );
    }
    for (const transfer of input.plan.transfers) {
      instructions.push(
        getTransferCheckedInstruction({
          source: tokenAccount,
          mint,
          destination: ataOf.get(transfer.to)!,
          authority: multisig,
          amount: transfer.amount,
          decimals: token.decimals,
          multiSigners,
        }),
      );
    }
    if (input.plan.outcome !== 'travel') instructions.push(close);
  } else {
    // A SOL leg is never a stable leg, so travel is never paid from one.
    if (input.plan.outcome === 'travel') throw new Error('travel is paid from token legs only');
    instructions.push(close);
    for (const transfer of input.plan.transfers) {
      instructions.push(
        getTransferSolInstruction({
          source: relayer,
          destination: address(transfer.to),
          amount: transfer.amount,
        }),
      );
    }
  }
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayer(relayer.address, m),
    (m) =>
      setTransactionMessageLifetimeUsingDurableNonce(
        {
          nonce: input.nonceValue as Nonce,
          nonceAccountAddress: address(input.nonceAccount),
          nonceAuthorityAddress: relayer.address,
        },
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const { messageBytes } = compileTransaction(message);
  const bytes = Uint8Array.from(messageBytes);
  return {
    messageBytes: bytes,
    signingPayload: {
      format: 'solana_message',
      data: base64.encode(bytes),
      signer: input.party,
      token_account: input.tokenAccount,
      summary: {
        transfers: input.plan.transfers.map(({ kind, to, amount }) => ({
          kind,
          to,
          amount: amount.toString(),
        })),
        mint: token?.mint ?? null,
        network_fee: '0',
      },
    },
  };
}
