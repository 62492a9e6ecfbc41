import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { AppError, type DealParty } from '@covenant/domain';

/** A code is valid for its 60-second step and the one after it (the QR on screen may be a few seconds old). */
export const meetingCodeStepMs = 60_000;
/** How far back an old code is still recognised as expired rather than unknown. */
const recognisedSteps = 60;
const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const qrPrefix = 'covenant:meet:';

/** The key of the check-in codes, derived from the master key so no new secret has to be kept. */
export function meetingCodeKey(masterKey: Buffer): Buffer {
  return Buffer.from(
    hkdfSync('sha256', masterKey, Buffer.alloc(0), 'covenant meeting check-in codes v1', 32),
  );
}

export function meetingCodeStep(now: Date): bigint {
  return BigInt(Math.floor(now.getTime() / meetingCodeStepMs));
}

/**
 * A party's code for a deal at a time step: 40 bits of HMAC-SHA256 over (deal, party, step) in
 * Crockford base32, 8 characters. Like TOTP, nothing is stored: the server recomputes it to check.
 */
export function meetingCode(key: Buffer, dealId: string, party: DealParty, step: bigint): string {
  const mac = createHmac('sha256', key).update(`${dealId}:${party}:${step}`).digest();
  let bits = 0n;
  for (const byte of mac.subarray(0, 5)) bits = (bits << 8n) | BigInt(byte);
  let code = '';
  for (let i = 7; i >= 0; i--) code += crockford[Number((bits >> BigInt(i * 5)) & 31n)];
  return code;
}

/** The code as shown: two groups of four. */
export function formatMeetingCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What the QR code carries: the deal, so a phone scanning another deal's code is told so. */
export function meetingQrText(dealId: string, code: string): string {
  return `${qrPrefix}${dealId}:${code}`;
}

/**
 * The code a party presented, typed or scanned: the QR's text or the code itself, in any case, with
 * dashes or spaces, and the letters Crockford base32 reads as digits (O → 0, I and L → 1).
 */
export function parsePresentedCode(dealId: string, presented: string): string {
  let text = presented.trim();
  if (text.toLowerCase().startsWith(qrPrefix)) {
    const rest = text.slice(qrPrefix.length);
    const separator = rest.lastIndexOf(':');
    if (separator < 0 || rest.slice(0, separator).toLowerCase() !== dealId.toLowerCase()) {
      throw new AppError('MEETING_CODE_INVALID', 'This code belongs to another deal.');
    }
    text = rest.slice(separator + 1);
  }
  const code = text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (!/^[0-9A-HJKMNP-TV-Z]{8}$/.test(code)) {
    throw new AppError('MEETING_CODE_INVALID', 'A check-in code has 8 letters and digits, like 7KQM-4XPA.');
  }
  return code;
}

const same = (a: string, b: string) => timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The step of the counterparty's code `code` presented by `party` now. Refuses, each with its own
 * message: the caller's own code, an expired code of the counterparty (up to an hour old), and
 * anything else.
 */
export function verifyMeetingCode(
  key: Buffer,
  dealId: string,
  party: DealParty,
  code: string,
  now: Date,
): bigint {
  const counterparty: DealParty = party === 'buyer' ? 'seller' : 'buyer';
  const current = meetingCodeStep(now);
  for (const step of [current, current - 1n]) {
    if (same(meetingCode(key, dealId, counterparty, step), code)) return step;
  }
  for (let back = 0n; back <= BigInt(recognisedSteps); back++) {
    const step = current - back;
    if (back >= 2n && same(meetingCode(key, dealId, counterparty, step), code)) {
      throw new AppError(
        'MEETING_CODE_EXPIRED',
        'This code has expired. Ask the other party to show their current code.',
      );
    }
    if (same(meetingCode(key, dealId, party, step), code)) {
      throw new AppError('MEETING_CODE_OWN', "That is your own code. Scan or type the other party's code.");
    }
  }
  throw new AppError(
    'MEETING_CODE_INVALID',
    "This code is not valid for this deal. Check it against the other party's screen.",
  );
}
