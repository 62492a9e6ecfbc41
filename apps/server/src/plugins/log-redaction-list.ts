/**
 * The redaction list: field names whose values never reach a log line, at any depth, in any
 * spelling (`refresh_token`, `refreshToken` and `Refresh-Token` are one name). Values are replaced
 * by `[redacted]`; the field itself stays, so a reader still sees that it was there.
 */
const secretFieldNames = [
  // HTTP credentials.
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'apikey',
  'x-api-key',
  // Passwords and what is derived from them.
  'password',
  'current_password',
  'new_password',
  'old_password',
  'passwd',
  'password_hash',
  // Session tokens, one-time tokens and their stored hashes.
  'access_token',
  'refresh_token',
  'provider_token',
  'provider_refresh_token',
  'id_token',
  'token',
  'token_hash',
  'code_hash',
  'otp',
  // PKCE: a sign-in's code with its verifier opens a session.
  'auth_code',
  'code_verifier',
  'code_challenge',
  // API keys and their stored hash.
  'key',
  'api_key',
  'key_hash',
  // Webhook signing secrets, TOTP secrets (the QR code and the otpauth URI carry them too).
  'secret',
  'client_secret',
  'webhook_secret',
  'totp_secret',
  'qr_code',
  // Key material: server keys, the user's encrypted escrow seed, anything a seed could be called.
  'private_key',
  'secret_key',
  'private_jwk',
  'jwt_private_jwk',
  'signing_key',
  'file_encryption_key',
  'master_key',
  'data_key',
  'wrapped_key',
  'ciphertext',
  'mnemonic',
  'seed',
  'seed_phrase',
  // Signatures over payouts: a party's release signature is held back until both legs are signed.
  'signature',
  'signatures',
  'psbt',
  'signed_transaction',
  'raw_transaction',
  'serialized_transaction',
  // SQL parameters (drizzle's DrizzleQueryError and PGlite's errors carry the query's values).
  'params',
  'parameters',
  'query_options',
];

/** Endings that make any field a secret: `webhookSecret`, `resetToken`, `relayerPrivateKey`. */
const secretFieldEndings = [
  'password',
  'token',
  'secret',
  'privatekey',
  'signature',
  'ciphertext',
  'mnemonic',
];

function normalize(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const secretFields = new Set(secretFieldNames.map(normalize));

/** Whether a field (object key, header, query parameter) of this name holds a secret. */
export function isSecretField(name: string): boolean {
  const normalized = normalize(name);
  return secretFields.has(normalized) || secretFieldEndings.some((ending) => normalized.endsWith(ending));
}

/**
 * Fields of PostgreSQL errors (pg, PGlite) that quote the failing statement's data: `where` and
 * `internalQuery` show the statements of functions and triggers with their values. `detail` is kept,
 * its values masked (see redact-log-text.ts).
 */
export const databaseErrorFieldsDropped = new Set(['where', 'internalQuery', 'internalPosition']);

export const redacted = '[redacted]';
