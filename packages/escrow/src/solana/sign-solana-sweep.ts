import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isAddress,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { SignedTransaction, SweepContext } from '../escrow-chain-adapter.js';
import { kitSigner } from './open-solana-leg.js';
import { readAccounts, type SolanaChainContext, stringifyWithBigInts } from './solana-chain-context.js';
import type { SolanaMint } from './solana-escrow-chain.js';
import { solanaLegAccounts } from './solana-leg-accounts.js';
import { READ_COMMITMENT } from './solana-rpc.js';

/**
 * The transaction returning lamports that reached a SOL leg's deposit address after the payout
 * closed its wSOL account: they sit in a system account whose key is the leg's `wsol-account`
 * keypair (derived from the deal and the leg). One system transfer of ALL its lamports to the
 * depositor's refund address, signed by that key and the relayer (fee payer, so the depositor
 * gets every lamport back), lifetime a recent blockhash (no person signs: it is sent at once, and
 * built afresh on a later pass if it was dropped). Simulated before it is returned.
 *
 * Throws, saying why, when there is nothing it can return: the address is not the leg's (a wrong
 * deal or leg), the leg is a token leg (its account is a program-derived ATA nobody can sign
 * for), the wSOL account is still open (its funds leave by a payout), the address holds nothing,
 * or the amount is below the rent-exempt minimum of a system account while the refund address has
 * no account (Solana refuses a transfer that leaves a new account under that minimum).
 */
export async function signSolanaSweep(
  context: SolanaChainContext,
  mints: readonly SolanaMint[],
  depositAddress: string,
  sweep: SweepContext,
): Promise<SignedTransaction> {
  const { dealId, leg, depositorRefundAddress } = sweep;
  const where = `deal ${dealId}'s ${leg} leg`;
  if (!isAddress(depositorRefundAddress)) {
    throw new Error(
      `cannot sweep ${where}: the refund address ${depositorRefundAddress} is not a Solana address`,
    );
  }
  const accounts = await solanaLegAccounts(context.platformKey, { dealId, leg, tokenAddress: null });
  const key = accounts.tokenAccountKey!;
  if (key.address !== depositAddress) {
    for (const mint of mints) {
      const tokenLeg = await solanaLegAccounts(context.platformKey, {
        dealId,
        leg,
        tokenAddress: mint.address,
      });
      if (tokenLeg.tokenAccount === depositAddress) {
        throw new Error(
          `nothing to sweep at ${depositAddress}: ${where} is a token leg (the multisig's associated account of ${mint.address}); only lamports at a SOL leg's closed wSOL address can be returned, and an associated token account's address has no key to sign with`,
        );
      }
    }
    throw new Error(
      `cannot sweep ${depositAddress}: it is not ${where}'s deposit address (that is ${key.address}); wrong deal id or leg`,
    );
  }
  if (depositorRefundAddress === depositAddress) {
    throw new Error(`cannot sweep ${where}: the refund address is the deposit address itself`);
  }

  const [held, refundAccount] = await readAccounts(context.rpc, [depositAddress, depositorRefundAddress]);
  if (!held || held.lamports === 0n) {
    throw new Error(`nothing to sweep at ${depositAddress} (${where}): no lamports there`);
  }
  if (held.owner === TOKEN_PROGRAM_ADDRESS) {
    throw new Error(
      `nothing to sweep at ${depositAddress} (${where}): its wSOL account is still open, so what it holds leaves by a payout, not a sweep`,
    );
  }
  if (held.owner !== SYSTEM_PROGRAM_ADDRESS || held.data.length > 0) {
    throw new Error(
      `cannot sweep ${depositAddress} (${where}): it is an account of program ${held.owner} holding ${held.data.length} bytes, not a plain system account`,
    );
  }
  const amount = held.lamports;
  const minimum = await context.rentExempt(0);
  if ((refundAccount?.lamports ?? 0n) === 0n && amount < minimum) {
    throw new Error(
      `cannot return ${amount} lamports from ${depositAddress} (${where}) to ${depositorRefundAddress}: that address has no account, and Solana refuses a transfer that leaves a new account under the rent-exempt minimum of ${minimum} lamports; an amount below it cannot be returned there`,
    );
  }

  const relayer = kitSigner(await context.platformKey.relayer());
  const source = kitSigner(key);
  const { value: latest } = await context.rpc.getLatestBlockhash({ commitment: READ_COMMITMENT }).send();
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayerSigner(relayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) =>
      appendTransactionMessageInstructions(
        [getTransferSolInstruction({ source, destination: address(depositorRefundAddress), amount })],
        m,
      ),
  );
  const signed = await signTransactionMessageWithSigners(message);
  // The fee payer's signature (base58): the transaction's id, known before it is sent.
  const txRef = getSignatureFromTransaction(signed);
  const rawTransaction = getBase64EncodedWireTransaction(signed);
  const { value } = await context.rpc
    .simulateTransaction(rawTransaction, { encoding: 'base64', sigVerify: true, commitment: READ_COMMITMENT })
    .send();
  if (value.err !== null) {
    const refusal = stringifyWithBigInts(value.err);
    const rent = /InsufficientFundsForRent/.test(refusal)
      ? ` (a transfer may not leave ${depositorRefundAddress} under the rent-exempt minimum of ${minimum} lamports)`
      : '';
    throw new Error(
      `the chain would refuse the sweep of ${amount} lamports from ${depositAddress} (${where}) to ${depositorRefundAddress}: ${refusal}${rent}; logs: ${(value.logs ?? []).join(' | ')}`,
    );
  }
  return { rawTransaction, txRef };
}
