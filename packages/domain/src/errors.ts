/**
 * Business error codes of the public API (spec §8) and the HTTP status each maps to. One error type
 * carries a code; the HTTP layer turns it into `{"error": {code, message, details, timestamp}}`.
 */
export const errorStatus = {
  VALIDATION_FAILED: 400,
  /** A well-formed request whose text holds characters the field refuses (NUL, lone surrogates, controls). */
  INVALID_TEXT: 422,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  /** A sensitive action from a session whose last sign-in is too old (ADR 013): confirm the password. */
  REAUTHENTICATION_NEEDED: 403,
  KYC_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** A file whose content (judged by its first bytes) is none of the types the route takes. */
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  INSUFFICIENT_BALANCE: 422,
  TIER_LIMIT_EXCEEDED: 422,
  /** A leg below the smallest amount its chain can settle (0.0001 BTC on Bitcoin): the minimum is named. */
  AMOUNT_BELOW_MINIMUM: 422,
  DEAL_NOT_ACTIVE: 409,
  INVALID_SIGNATURE: 400,
  ESCROW_ALREADY_FUNDED: 409,
  INVALID_STATE_TRANSITION: 409,
  ADDRESSES_REQUIRED: 422,
  /** A deal leg on a chain whose escrow is not built yet (not listed by GET /api/v1/chains). */
  CHAIN_NOT_AVAILABLE: 422,
  /** An escrow approval in the form of another chain (a PSBT for an Ethereum leg, an EIP-712 signature for a Bitcoin one). */
  APPROVAL_FORM_MISMATCH: 422,
  /** A Bitcoin signer that is not a compressed secp256k1 public key (or an address sent in its place). */
  INVALID_PUBLIC_KEY: 422,
  /** Terms that require a meeting accepted before its place, coordinates, first day and duration are proposed. */
  MEETING_DETAILS_REQUIRED: 422,
  /** A meeting action on a deal whose terms require no meeting. */
  MEETING_NOT_REQUIRED: 409,
  /** Check-in outside the meeting window, or before the escrow is funded. */
  MEETING_NOT_OPEN: 409,
  /** Settlement waits until both parties checked in at the meeting or both waived it. */
  MEETING_PENDING: 409,
  ALREADY_CHECKED_IN: 409,
  /** A check-in code that is not the counterparty's for this deal, expired, already used, or the caller's own. */
  MEETING_CODE_INVALID: 422,
  MEETING_CODE_EXPIRED: 422,
  MEETING_CODE_USED: 422,
  MEETING_CODE_OWN: 422,
  /** A travel quote the stable leg cannot pay now (not funded, short of the buyer's share, frozen by a dispute, or already settling). */
  TRAVEL_NOT_PAYABLE: 409,
  /** Escrow refused for a deal of $1,000 or more: a party's records lack an element the Travel Rule requires. */
  TRAVEL_RULE_INCOMPLETE: 422,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
