import { z } from 'zod';

/**
 * The code a refused text carries, in the zod issue's params and as the API error code. The server
 * answers it with 422 rather than the 400 of a malformed request: the request is well formed, the
 * text in it is not acceptable.
 */
export const invalidTextCode = 'INVALID_TEXT';

/** A high surrogate not followed by a low one, or a low one without a high one before it. */
const unpairedSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Characters that have no place in a name or a reason: C0 controls (tab, line feed and carriage
 * return only where text may span lines), DEL, C1 controls, and the bidirectional embeddings,
 * overrides and isolates that make text read differently from what it holds (U+202A–U+202E,
 * U+2066–U+2069).
 */
function holdsControlCharacter(value: string, lineBreaksAllowed: boolean): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const unit = value.charCodeAt(index);
    if (unit < 0x20 && !(lineBreaksAllowed && (unit === 0x09 || unit === 0x0a || unit === 0x0d))) return true;
    if (unit >= 0x7f && unit <= 0x9f) return true;
    if ((unit >= 0x202a && unit <= 0x202e) || (unit >= 0x2066 && unit <= 0x2069)) return true;
  }
  return false;
}

export const unstorableTextMessage = 'Text must not contain NUL characters (U+0000) or unpaired surrogates';
export const singleLineTextMessage =
  'Remove control characters, line breaks and text-direction overrides: they are not allowed here';
export const multiLineTextMessage =
  'Remove control characters and text-direction overrides: only tabs and line breaks are allowed among them';

/** Why a string cannot be stored at all (every field, every route), or null when it can. */
export function findUnstorableText(value: string): 'NUL' | 'unpaired surrogate' | null {
  // U+0000: PostgreSQL text and jsonb cannot hold it, and C strings end at it.
  if (value.includes('\u0000')) return 'NUL';
  if (unpairedSurrogate.test(value)) return 'unpaired surrogate';
  return null;
}

/** True for text a name or a one-line reason may hold: storable, no controls, no direction overrides. */
export function isSingleLineText(value: string): boolean {
  return findUnstorableText(value) === null && !holdsControlCharacter(value, false);
}

/** True for text a message or a description may hold: like a name, but tabs and line breaks allowed. */
export function isMultiLineText(value: string): boolean {
  return findUnstorableText(value) === null && !holdsControlCharacter(value, true);
}

/**
 * A string for a name or a one-line text (API key name, display names, subjects), trimmed.
 * Chain `.min()`/`.max()` after it; the refusal carries `invalidTextCode` so the API answers 422.
 */
export function singleLineText(message: string = singleLineTextMessage) {
  return z
    .string()
    .trim()
    .refine(isSingleLineText, { message, params: { code: invalidTextCode } });
}

/** A string that may span lines (messages, cancel and dispute reasons, rationales), trimmed. */
export function multiLineText(message: string = multiLineTextMessage) {
  return z
    .string()
    .trim()
    .refine(isMultiLineText, { message, params: { code: invalidTextCode } });
}

/** True when a zod issue (or its copy in a validation error) is a refusal by one of the rules above. */
export function isInvalidTextIssue(issue: object): boolean {
  const params = (issue as { params?: { code?: unknown; params?: { code?: unknown } } }).params;
  return params?.code === invalidTextCode || params?.params?.code === invalidTextCode;
}
