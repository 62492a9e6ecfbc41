import type { TypedDataJson } from '@covenant/domain';
import type { SolanaLegCustody, SolanaSummary } from '../api/escrow-leg-signing.js';
import { checkSolanaPayout } from './check-solana-payout.js';

/** The quote a travel payment must pay: exactly this amount (base units) to this address. */
export interface TravelQuoteExpectation {
  amount: string;
  payee_address: string;
}

const notSigned = 'so it was not signed.';
/** The escrow contract's action that pays travel (part of the leg, without fee, escrow left open). */
const travelAction = 3;

/**
 * Checks the EIP-712 payout the buyer is asked to sign for a travel quote before the key signs it:
 * the TRAVEL action of this leg's escrow contract on the chain id the app knows for Ethereum
 * (`GET /chains`), one recipient, the quote's payee, and exactly the quote's amount. Anything else
 * (a release, another address, another amount, another contract or chain) is refused with the reason.
 */
export function checkTravelTypedData(
  typedData: TypedDataJson,
  quote: TravelQuoteExpectation,
  escrowAddress: string,
  chainId: number | undefined,
): void {
  const { message, domain } = typedData;
  if (domain.verifyingContract.toLowerCase() !== escrowAddress.toLowerCase()) {
    throw new Error(`The payout is for another escrow than this deal’s stable leg, ${notSigned}`);
  }
  if (chainId === undefined || domain.chainId !== chainId) {
    throw new Error(`The payout is for another Ethereum network than this deal’s, ${notSigned}`);
  }
  if (message.action !== travelAction) {
    throw new Error(`The payout is not a travel payment (it would settle the leg), ${notSigned}`);
  }
  const recipients = Array.isArray(message.recipients) ? message.recipients : [];
  const amounts = Array.isArray(message.amounts) ? message.amounts : [];
  const [recipient, ...others] = recipients;
  if (
    typeof recipient !== 'string' ||
    others.length > 0 ||
    recipient.toLowerCase() !== quote.payee_address.toLowerCase()
  ) {
    throw new Error(`The payout pays someone other than the quote’s provider, ${notSigned}`);
  }
  if (amounts.length !== 1 || amounts[0] !== quote.amount) {
    throw new Error(`The payout pays another amount than the quote, ${notSigned}`);
  }
}

/**
 * Checks the Solana message the buyer is asked to sign for a travel quote: one transfer shown, of
 * kind travel, to the payee, for the quote's amount, and the message doing exactly that out of the
 * leg's token account, leaving it open (`checkSolanaPayout` with `partial`).
 */
export function checkTravelSolanaMessage(
  messageBytes: Uint8Array,
  summary: SolanaSummary,
  custody: SolanaLegCustody,
  decimals: number,
  quote: TravelQuoteExpectation,
  depositAddress: string,
): void {
  const [transfer, ...others] = summary.transfers;
  if (
    !transfer ||
    others.length > 0 ||
    (transfer.kind as string) !== 'travel' ||
    transfer.to !== quote.payee_address ||
    transfer.amount !== quote.amount
  ) {
    throw new Error(`The payment shown is not the quote’s, ${notSigned}`);
  }
  checkSolanaPayout(messageBytes, {
    summary,
    custody,
    decimals,
    received: '0',
    partial: true,
    depositAddress,
    agreed: null,
  });
}
