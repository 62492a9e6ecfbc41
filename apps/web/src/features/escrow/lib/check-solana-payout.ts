import { platformFee } from '@covenant/domain';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64 } from '@scure/base';
import type { PsbtTransfer, SolanaLegCustody, SolanaSummary } from '../api/escrow-leg-signing.js';
import type { AgreedLegTerms } from './agreed-leg-terms.js';
import { checkSolanaCustody } from './check-solana-custody.js';
import {
  associatedTokenAddress,
  associatedTokenProgram,
  nativeMint,
  systemProgram,
  tokenProgram,
} from './solana-address.js';
import { parseLegacyMessage, requiredSigners, type SolanaMessage } from './solana-message.js';

/** What a leg's payout message is checked against: the server's summary and the leg's custody. */
export interface SolanaPayoutExpectation {
  summary: SolanaSummary;
  custody: SolanaLegCustody;
  /** The token's decimals (9 for SOL, 6 for USDC and USDT): TransferChecked carries them. */
  decimals: number;
  /** The SOL leg's confirmed deposits (base units): its transfers must pay out all of it. */
  received: string;
  /**
   * A travel payment: part of a token leg paid out before it settles. The message must then leave
   * the leg's account open (closing it would empty the escrow).
   */
  partial?: boolean;
  /** The leg's deposit address: the custody must recompute it (`checkSolanaCustody`). */
  depositAddress: string;
  /** The mint `GET /chains` lists for the leg's symbol (null for SOL); undefined when it lists none. */
  expectedMint?: string | null;
  /**
   * What the deal fixes for a settlement or refund of the leg; null only for a travel payment
   * (`partial`), which is checked against its quote instead.
   */
  agreed: SolanaAgreedPayout | null;
}

/** A Solana settlement's transfers as the deal the user agreed to makes them. */
export interface SolanaAgreedPayout {
  terms: AgreedLegTerms;
  /** What the receiver gets before the fee (`agreedGrossToReceiver`); null: nothing may go to it. */
  gross: bigint | null;
  /** The SOL `fee_address` of `GET /chains`. */
  feeAddress: string;
  /** What a release takes off the receiver's payout for travel paid out of the leg (`travelChargedToReceiver`); 0n otherwise. */
  travelCharge: bigint;
}

/** A transfer as the message makes it: to a wallet (a token transfer's ATA mapped back to its owner). */
type MessageTransfer = { to: string; amount: bigint };

const notSigned = 'so it was not signed.';

function u32(data: Uint8Array): number | null {
  return data.length >= 4 ? new DataView(data.buffer, data.byteOffset).getUint32(0, true) : null;
}

function u64(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset).getBigUint64(offset, true);
}

/**
 * Checks the summary's transfers against the deal: each goes where its kind must (the payout to the
 * receiver's agreed payout address, the fee to the fee address `GET /chains` lists, a refund to the
 * depositor's agreed refund address), the fee is exactly `floor(gross / 10 000)` and the payout
 * `gross − fee − travel charge` (the relayer pays the network fee, so nothing else comes off), as
 * the server's settlement plan makes them. A summary the message matches is then what the deal says.
 */
function checkAgainstDeal(summary: SolanaSummary, agreed: SolanaAgreedPayout): void {
  const { terms, feeAddress } = agreed;
  const destinations: Record<PsbtTransfer['kind'], [string, string]> = {
    payout: [terms.receiverPayoutAddress, 'the receiver’s payout address'],
    fee: [feeAddress, 'Covenant’s fee address'],
    refund: [terms.depositorRefundAddress, 'the depositor’s refund address'],
  };
  for (const transfer of summary.transfers) {
    const [destination, named] = destinations[transfer.kind] ?? ['', 'the deal’s'];
    if (transfer.to !== destination) {
      throw new Error(`A transfer marked ${transfer.kind} pays an address other than ${named}, ${notSigned}`);
    }
  }
  const amounts = (kind: PsbtTransfer['kind']) =>
    summary.transfers.filter((transfer) => transfer.kind === kind).map((transfer) => BigInt(transfer.amount));
  const gross = agreed.gross ?? 0n;
  const fee = platformFee(gross);
  const [payout = 0n, ...morePayouts] = amounts('payout');
  const [paidFee = 0n, ...moreFees] = amounts('fee');
  if (agreed.gross === null && (payout > 0n || paidFee > 0n)) {
    throw new Error(
      `The payout pays the receiver, but this page knows of no decision that gives it anything, ${notSigned}`,
    );
  }
  if (
    morePayouts.length > 0 ||
    moreFees.length > 0 ||
    paidFee !== fee ||
    payout !== gross - fee - agreed.travelCharge
  ) {
    throw new Error(
      `The payout does not pay the receiver the deal’s amount less the 0.01% fee, ${notSigned}`,
    );
  }
}

/**
 * Checks that a Solana payout message does exactly what its summary shows, and nothing else, before
 * the user's key signs it: it advances the leg's nonce, then (token leg) creates the recipients'
 * token accounts, moves the token from the leg's account by the multisig, one TransferChecked per
 * transfer shown, to the associated token account of each recipient, and closes the leg's account;
 * or (SOL leg) closes the leg's wrapped-SOL account to the fee payer, which pays each transfer
 * shown, all of what the leg received. Before that, the custody must recompute the deposit address
 * and (but for a travel payment) the summary must be what the deal makes (`checkAgainstDeal`). Any
 * other program or instruction, or an amount or recipient not as shown, is refused with the reason.
 * Answers the parsed message.
 */
export function checkSolanaPayout(
  messageBytes: Uint8Array,
  expected: SolanaPayoutExpectation,
): SolanaMessage {
  const { summary, custody, decimals } = expected;
  const custodyCheck = checkSolanaCustody(expected.depositAddress, custody, expected.expectedMint);
  if (!custodyCheck.ok) {
    throw new Error(`${custodyCheck.reason.replace(/\.$/, '')}, so the payout was not signed.`);
  }
  if (expected.agreed) checkAgainstDeal(summary, expected.agreed);
  else if (!expected.partial) {
    throw new Error(`This payout cannot be checked against the deal, ${notSigned}`);
  }
  const message = parseLegacyMessage(messageBytes);
  const feePayer = message.accountKeys[0];
  const sol = custody.mint === nativeMint;
  if (summary.mint !== (sol ? null : custody.mint)) {
    throw new Error(`The payout is shown in another token than this leg holds, ${notSigned}`);
  }
  if (Object.values(custody.public_keys).includes(feePayer ?? '')) {
    throw new Error(`The transaction would make a party’s key pay the network fee, ${notSigned}`);
  }
  const [advance, ...rest] = message.instructions;
  if (
    !advance ||
    advance.programId !== systemProgram ||
    u32(advance.data) !== 4 ||
    advance.data.length !== 4 ||
    advance.accounts[0] !== custody.nonce_account ||
    advance.accounts[2] !== feePayer
  ) {
    throw new Error(`The transaction does not start by advancing this leg’s nonce account, ${notSigned}`);
  }

  const transfers: MessageTransfer[] = [];
  let closed = false;
  for (const instruction of rest) {
    const { programId, accounts, data } = instruction;
    if (closed && !sol) {
      throw new Error(`The transaction does something after closing the leg’s account, ${notSigned}`);
    }
    if (programId === tokenProgram && data[0] === 9 && data.length === 1) {
      // CloseAccount(account, destination, owner, ...signers): the rent (and wrapped SOL) to the fee payer.
      if (expected.partial) {
        throw new Error(
          `The transaction closes the leg’s account, which a travel payment must leave open, ${notSigned}`,
        );
      }
      if (
        closed ||
        accounts[0] !== custody.token_account ||
        accounts[1] !== feePayer ||
        accounts[2] !== custody.multisig
      ) {
        throw new Error(
          `The transaction closes an account other than this leg’s, or to someone else, ${notSigned}`,
        );
      }
      closed = true;
    } else if (!sol && programId === tokenProgram && data[0] === 12 && data.length === 10) {
      // TransferChecked(source, mint, destination, authority, ...signers), amount u64, decimals u8.
      if (
        accounts[0] !== custody.token_account ||
        accounts[1] !== custody.mint ||
        accounts[3] !== custody.multisig
      ) {
        throw new Error(`The transaction moves a token from an account other than this leg’s, ${notSigned}`);
      }
      if (data[9] !== decimals) {
        throw new Error(
          `The transaction counts the token in ${data[9]} decimals instead of ${decimals}, ${notSigned}`,
        );
      }
      transfers.push({ to: accounts[2] ?? '', amount: u64(data, 1) });
    } else if (!sol && programId === associatedTokenProgram && data.length === 1 && data[0] === 1) {
      // CreateIdempotent(payer, account, owner, mint, …): the recipient's token account, paid by the fee payer.
      if (accounts[0] !== feePayer || accounts[3] !== custody.mint) {
        throw new Error(`The transaction opens a token account someone else pays for, ${notSigned}`);
      }
    } else if (sol && closed && programId === systemProgram && u32(data) === 2 && data.length === 12) {
      // Transfer(from, to), lamports u64: from the fee payer, which the close just paid.
      if (accounts[0] !== feePayer) {
        throw new Error(`The transaction pays SOL from an account other than the fee payer, ${notSigned}`);
      }
      transfers.push({ to: accounts[1] ?? '', amount: u64(data, 4) });
    } else {
      throw new Error(`The transaction does something other than pay out this leg, ${notSigned}`);
    }
  }
  if (expected.partial && sol) throw new Error(`Travel is paid from token legs only, ${notSigned}`);
  if (!closed && !expected.partial) {
    throw new Error(`The transaction does not close this leg’s account, ${notSigned}`);
  }

  const shown = summary.transfers;
  if (transfers.length !== shown.length) {
    throw new Error(
      `The transaction makes ${transfers.length} transfers where ${shown.length} are shown, ${notSigned}`,
    );
  }
  transfers.forEach((transfer, index) => {
    const want = shown[index];
    if (!want) return;
    const destination = sol ? want.to : associatedTokenAddress(want.to, custody.mint);
    if (transfer.to !== destination || transfer.amount !== BigInt(want.amount)) {
      throw new Error(`Transfer ${index + 1} of the transaction is not the one shown, ${notSigned}`);
    }
  });
  if (sol) {
    const total = transfers.reduce((sum, transfer) => sum + transfer.amount, 0n);
    if (total !== BigInt(expected.received)) {
      throw new Error(`The transfers do not add up to what the leg received, ${notSigned}`);
    }
  }
  return message;
}

/**
 * Signs a Solana payout message (base64) with the user's Solana escrow key once
 * {@link checkSolanaPayout} passes and the key is one of the signers the message requires; answers
 * the ed25519 signature over the message bytes in base58, for `POST /escrow/release`.
 */
export function signSolanaPayout(
  messageBase64: string,
  expected: SolanaPayoutExpectation,
  key: { publicKey: Uint8Array; privateKey: Uint8Array },
): string {
  let bytes: Uint8Array;
  try {
    bytes = base64.decode(messageBase64);
  } catch {
    throw new Error(`This is not a Solana transaction this page can read, ${notSigned}`);
  }
  const message = checkSolanaPayout(bytes, expected);
  if (!requiredSigners(message).includes(base58.encode(key.publicKey))) {
    throw new Error(`This payout does not ask for your key’s signature, ${notSigned}`);
  }
  return base58.encode(ed25519.sign(bytes, key.privateKey));
}
