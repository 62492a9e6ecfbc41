import { isSecretField, redacted } from './log-redaction-list.js';

/**
 * Secrets recognisable by their shape wherever they sit in a text: an error message that quotes a
 * header, a connection string, a key pasted into a field. Each keeps enough to tell what was there.
 */
const secretShapes: [RegExp, string][] = [
  // drizzle's "Failed query: … \nparams: a,b,c", also when another error's message quotes it.
  [/\nparams: [\s\S]*?(?=\n {4}at |\ncaused by: |$)/g, `\nparams: ${redacted}`],
  [
    /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
    `[${redacted} $1PRIVATE KEY]`,
  ],
  // An Authorization header quoted in a message; 16 characters and up, so prose about bearer tokens stays.
  [/\b([Bb]earer)\s+[\w.~+/-]{16,}=*/g, `$1 ${redacted}`],
  // JSON Web Tokens (access tokens): three base64url parts, the first a JSON header.
  [/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, redacted],
  // Our API keys and webhook secrets announce themselves.
  [/\bcov_live_[\w-]+/g, `cov_live_${redacted}`],
  [/\bwhsec_[\w-]+/g, `whsec_${redacted}`],
  // user:password@ in a URL (DATABASE_URL, REDIS_URL, SMTP_URL in a connection error).
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi, `$1${redacted}@`],
  // Hex longer than a hash or an address: signatures and signed payout transactions, 65 bytes and up.
  [/\b0x[0-9a-fA-F]{130,}/g, `0x${redacted}`],
];

/**
 * `name=value` and `name: value` pairs (query strings, otpauth URIs, messages) whose name is on the
 * list. A name starts where a word does, so a long word is scanned once; a SQL placeholder
 * (`"key_hash" = $1`) is not a value.
 */
const namedValue = /(?<![\w.-])([A-Za-z][\w.-]*)(["']?\s*[:=]\s*["']?)([^\s"'&,;)$][^\s"'&,;)]*)/g;

/** A text with every secret it visibly carries replaced by `[redacted]`. */
export function redactText(text: string): string {
  let result = text;
  for (const [shape, replacement] of secretShapes) result = result.replace(shape, replacement);
  return redactNamedValues(result);
}

function redactNamedValues(text: string): string {
  const pairs = new RegExp(namedValue);
  let result = '';
  let copied = 0;
  for (let pair = pairs.exec(text); pair !== null; pair = pairs.exec(text)) {
    const [whole, name = '', separator = ''] = pair;
    if (isSecretField(name)) {
      result += `${text.slice(copied, pair.index)}${name}${separator}${redacted}`;
      copied = pair.index + whole.length;
    } else {
      // The value may hold the next pair (`refused: password=hunter2`): read on from its start.
      pairs.lastIndex = pair.index + name.length + separator.length;
    }
  }
  return result + text.slice(copied);
}

/**
 * Query parameters kept out of logs only in URLs: OAuth's `code`, the `state` that binds a sign-in to
 * its browser, and search text (`q`, `query`: staff look people up by e-mail address, name or
 * address, and ADR 025 keeps what they searched for unstored).
 */
const secretUrlParameters = new Set(['code', 'state', 'q', 'query']);

/** A request URL with the values of secret query parameters (OAuth's `code` and `state`, search text) masked. */
export function maskUrl(url: string): string {
  return redactText(
    url.replace(/([?&])([^=&#]+)=([^&#]*)/g, (pair, separator: string, name: string) =>
      secretUrlParameters.has(name) ? `${separator}${name}=${redacted}` : pair,
    ),
  );
}

/**
 * PostgreSQL quotes the data of the failing row in an error's message and detail. Masked here: the
 * key of a unique or foreign-key violation, the row of a NOT NULL or CHECK violation, and the value
 * a type or enum refused. What failed (constraint, column, type) stays readable.
 */
const databaseValueShapes: [RegExp, string][] = [
  [/(Key \([^)]*\)=\()[\s\S]*\)/g, `$1${redacted})`],
  [/(Failing row contains \()[\s\S]*\)/g, `$1${redacted})`],
  [/(\bvalue |\bToken )"[\s\S]*?"( is )/g, `$1"${redacted}"$2`],
  [/(: )"[\s\S]*"$/, `$1"${redacted}"`],
  [/(invalid byte sequence for encoding "[^"]+": )[\s\S]*$/, `$1${redacted}`],
];

export function maskDatabaseText(text: string): string {
  let result = text;
  for (const [shape, replacement] of databaseValueShapes) result = result.replace(shape, replacement);
  return redactText(result);
}
