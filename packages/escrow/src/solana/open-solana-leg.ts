import { AppError } from '@covenant/domain';
import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  isAddress,
  pipe,
  type SignatureDictionary,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type TransactionPartialSigner,
} from '@solana/kit';
import {
  getCreateAccountInstruction,
  getInitializeNonceAccountInstruction,
  getNonceSize,
  SYSTEM_PROGRAM_ADDRESS,
} from '@solana-program/system';
import {
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeAccount3Instruction,
  getInitializeMultisig2Instruction,
  getMultisigSize,
  getTokenDecoder,
  getTokenSize,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import type { LegTerms } from '../chain-adapter.js';
import type { OpenedLeg } from '../escrow-chain-adapter.js';
import type { SolanaKeySigner } from './platform-solana-key.js';
import { readAccounts, type SolanaChainContext } from './solana-chain-context.js';
import type { SolanaCustody } from './solana-escrow-chain.js';
import { type SolanaLegAccounts, solanaLegAccounts } from './solana-leg-accounts.js';
import { describeRpcError, READ_COMMITMENT } from './solana-rpc.js';
import { waitForSolanaTransaction } from './wait-for-solana-transaction.js';

/** A kit signer over one of the platform's keys (which may live in a KMS). */
export function kitSigner(signer: SolanaKeySigner): TransactionPartialSigner {
  const signerAddress = address(signer.address);
  return {
    address: signerAddress,
    signTransactions: (transactions) =>
      Promise.all(
        transactions.map(
          async (transaction) =>
            ({
              [signerAddress]: await signer.sign(Uint8Array.from(transaction.messageBytes)),
            }) as SignatureDictionary,
        ),
      ),
  };
}

/** Refuses signers that are not three distinct Solana addresses. */
export function checkSolanaSigners(signers: LegTerms['signers']): void {
  for (const role of ['buyer', 'seller', 'platform'] as const) {
    if (!isAddress(signers[role])) {
      throw new AppError('VALIDATION_FAILED', `The ${role}'s Solana key must be a base58 address (32 bytes)`);
    }
  }
  if (new Set([signers.buyer, signers.seller, signers.platform]).size !== 3) {
    throw new AppError(
      'VALIDATION_FAILED',
      'The buyer, seller and platform Solana keys must be three distinct keys',
    );
  }
}

/** The leg's accounts for `terms`, refusing a token the platform does not trade. */
export async function legAccountsOf(
  context: SolanaChainContext,
  terms: LegTerms,
): Promise<SolanaLegAccounts> {
  if (terms.tokenAddress !== null && !context.mintOf(terms.tokenAddress)) {
    throw new AppError('VALIDATION_FAILED', `The mint ${terms.tokenAddress} is not a token traded on Solana`);
  }
  return solanaLegAccounts(context.platformKey, terms);
}

export function custodyOf(terms: LegTerms, accounts: SolanaLegAccounts): SolanaCustody {
  return {
    multisig: accounts.multisig.address,
    token_account: accounts.tokenAccount,
    nonce_account: accounts.nonce.address,
    mint: accounts.mint,
    threshold: 2,
    public_keys: {
      buyer: terms.signers.buyer,
      seller: terms.signers.seller,
      platform: terms.signers.platform,
    },
    solana_pay_recipient: accounts.tokenAccountKey ? accounts.tokenAccount : accounts.multisig.address,
  };
}

/**
 * Creates the leg's nonce account (authority the relayer), its 2-of-3 SPL multisig (buyer,
 * seller, platform in that order) and its token account, in one transaction paid and signed by the
 * relayer and the new accounts' keys, and waits until it is confirmed. Sends nothing when the
 * three accounts exist and the token account has the expected owner and mint.
 */
export async function openSolanaLeg(
  context: SolanaChainContext,
  terms: LegTerms,
): Promise<OpenedLeg & { custody: SolanaCustody }> {
  checkSolanaSigners(terms.signers);
  const accounts = await legAccountsOf(context, terms);
  const custody = custodyOf(terms, accounts);
  const opened = { depositAddress: accounts.tokenAccount, custody };
  const [nonce, multisig, tokenAccount] = await readAccounts(context.rpc, [
    accounts.nonce.address,
    accounts.multisig.address,
    accounts.tokenAccount,
  ]);
  if (nonce && multisig && tokenAccount) {
    const token =
      tokenAccount.owner === TOKEN_PROGRAM_ADDRESS ? getTokenDecoder().decode(tokenAccount.data) : null;
    if (token?.owner !== accounts.multisig.address || token.mint !== accounts.mint) {
      throw new Error(
        `the leg's token account ${accounts.tokenAccount} exists but is not the multisig's account of ${accounts.mint}`,
      );
    }
    return { ...opened, txRef: null };
  }

  const relayer = kitSigner(await context.platformKey.relayer());
  const nonceSigner = kitSigner(accounts.nonce);
  const multisigSigner = kitSigner(accounts.multisig);
  const mint = address(accounts.mint);
  const instructions: Instruction[] = [
    getCreateAccountInstruction({
      payer: relayer,
      newAccount: nonceSigner,
      lamports: await context.rentExempt(getNonceSize()),
      space: getNonceSize(),
      programAddress: SYSTEM_PROGRAM_ADDRESS,
    }),
    getInitializeNonceAccountInstruction({
      nonceAccount: nonceSigner.address,
      nonceAuthority: relayer.address,
    }),
    getCreateAccountInstruction({
      payer: relayer,
      newAccount: multisigSigner,
      lamports: await context.rentExempt(getMultisigSize()),
      space: getMultisigSize(),
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMultisig2Instruction({
      multisig: multisigSigner.address,
      m: 2,
      signers: [address(terms.signers.buyer), address(terms.signers.seller), address(terms.signers.platform)],
    }),
  ];
  if (accounts.tokenAccountKey) {
    const wsolSigner = kitSigner(accounts.tokenAccountKey);
    instructions.push(
      getCreateAccountInstruction({
        payer: relayer,
        newAccount: wsolSigner,
        lamports: await context.rentExempt(getTokenSize()),
        space: getTokenSize(),
        programAddress: TOKEN_PROGRAM_ADDRESS,
      }),
      getInitializeAccount3Instruction({ account: wsolSigner.address, mint, owner: multisigSigner.address }),
    );
  } else {
    instructions.push(
      getCreateAssociatedTokenIdempotentInstruction({
        payer: relayer,
        ata: address(accounts.tokenAccount),
        owner: multisigSigner.address,
        mint,
      }),
    );
  }
  const { value: latest } = await context.rpc.getLatestBlockhash({ commitment: READ_COMMITMENT }).send();
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayerSigner(relayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const signed = await signTransactionMessageWithSigners(message);
  const txRef = getSignatureFromTransaction(signed);
  try {
    await context.rpc
      .sendTransaction(getBase64EncodedWireTransaction(signed), {
        encoding: 'base64',
        preflightCommitment: READ_COMMITMENT,
      })
      .send();
  } catch (error) {
    throw new Error(
      `opening the leg at ${accounts.tokenAccount} failed (${txRef}): ${describeRpcError(error)}`,
    );
  }
  await waitForSolanaTransaction(context, txRef);
  return { ...opened, txRef };
}
