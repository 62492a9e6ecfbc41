import {
  declaresOnlyEscrowPayout,
  type EscrowKeyRecord,
  escrowPayoutDomain,
  minimumEscrowKeyIterations,
  type TypedDataJson,
} from '@covenant/domain';
import { type Hex, sha256, type TypedDataDefinition } from 'viem';
import { english, generateMnemonic, type HDAccount, mnemonicToAccount } from 'viem/accounts';

/**
 * The user's escrow seed, handled only in the browser (DESIGN §6: user keys are non-custodial). The
 * server keeps the ciphertext this module makes; the escrow password never leaves the page, so the
 * platform cannot sign for the user.
 */

/** What the server stores: the ciphertext and how it was made. */
export type EncryptedEscrowSeed = Pick<EscrowKeyRecord, 'ciphertext' | 'encryption'>;

/** OWASP's 2023 floor for PBKDF2-HMAC-SHA-256 (the API refuses fewer): a stolen ciphertext resists guessing. */
export const defaultEscrowKeyIterations = minimumEscrowKeyIterations;

/** The one message for a failed unlock: AES-GCM cannot tell a wrong password from a tampered ciphertext. */
export const wrongEscrowPasswordMessage = 'That escrow password is not right.';

/** A new 12-word BIP-39 backup phrase (128 bits of entropy from the browser's CSPRNG). */
export function createEscrowSeed(): string {
  return generateMnemonic(english);
}

/** Lower-case words separated by single spaces: how a phrase typed back from paper is compared. */
export function normalizeEscrowSeed(mnemonic: string): string {
  return mnemonic.trim().toLowerCase().split(/\s+/).join(' ');
}

/**
 * Whether `mnemonic` is a 12-word English BIP-39 phrase with a correct checksum, so a mistyped word
 * is caught before a key nobody backed up gets registered.
 */
export function isValidEscrowSeed(mnemonic: string): boolean {
  const words = normalizeEscrowSeed(mnemonic).split(' ');
  if (words.length !== 12) return false;
  const indexes = words.map((word) => english.indexOf(word));
  if (indexes.some((index) => index < 0)) return false;
  // 12 words × 11 bits = 128 bits of entropy followed by the first 4 bits of its SHA-256.
  const bits = indexes.map((index) => index.toString(2).padStart(11, '0')).join('');
  const entropy = new Uint8Array(16);
  for (let byte = 0; byte < 16; byte++)
    entropy[byte] = Number.parseInt(bits.slice(byte * 8, byte * 8 + 8), 2);
  const checksum = Number.parseInt(sha256(entropy).slice(2, 3), 16);
  return checksum === Number.parseInt(bits.slice(128), 2);
}

/** The Ethereum escrow signer of the seed: BIP-44 path m/44'/60'/0'/0/0, as common wallets derive it. */
export function ethereumAccountFromSeed(mnemonic: string): HDAccount {
  return mnemonicToAccount(normalizeEscrowSeed(mnemonic));
}

/**
 * Encrypts the seed with a key stretched from the escrow password (PBKDF2-SHA-256 → AES-256-GCM,
 * random 16-byte salt and 12-byte IV). `iterations` is lowered only by tests.
 */
export async function encryptEscrowSeed(
  mnemonic: string,
  password: string,
  iterations: number = defaultEscrowKeyIterations,
): Promise<EncryptedEscrowSeed> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await passwordKey(password, salt, iterations);
  const plaintext = new TextEncoder().encode(normalizeEscrowSeed(mnemonic));
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plaintext);
  return {
    ciphertext: toBase64(new Uint8Array(ciphertext)),
    encryption: {
      kdf: 'PBKDF2',
      hash: 'SHA-256',
      iterations,
      salt: toBase64(salt),
      cipher: 'AES-256-GCM',
      iv: toBase64(iv),
    },
  };
}

/** The seed inside `record`; a wrong password (the GCM tag does not verify) throws {@link wrongEscrowPasswordMessage}. */
export async function decryptEscrowSeed(record: EncryptedEscrowSeed, password: string): Promise<string> {
  const { encryption } = record;
  if (encryption.kdf !== 'PBKDF2' || encryption.hash !== 'SHA-256' || encryption.cipher !== 'AES-256-GCM') {
    throw new Error('This escrow key was encrypted in a way this page does not know.');
  }
  const key = await passwordKey(password, fromBase64(encryption.salt), encryption.iterations);
  let plaintext: ArrayBuffer;
  try {
    plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64(encryption.iv) },
      key,
      fromBase64(record.ciphertext),
    );
  } catch {
    throw new Error(wrongEscrowPasswordMessage);
  }
  return new TextDecoder().decode(plaintext);
}

/**
 * Signs the API's EIP-712 payload (`release_typed_data`) with the seed's Ethereum account. The JSON
 * carries integers as decimal strings or numbers; they become bigints as the types declare them, so
 * the digest is the one the escrow contract computes. Only an escrow payout is signed, in the escrow
 * contract's domain (`CovenantEscrow`, `1`): the same key may hold tokens, and a token permit served
 * in its place would hand them over. What it pays is the caller's to check against the deal first
 * (`checkEthereumPayout`, `checkTravelTypedData`).
 */
export async function signEscrowTypedData(mnemonic: string, typedData: TypedDataJson): Promise<Hex> {
  if (
    typedData.domain.name !== escrowPayoutDomain.name ||
    typedData.domain.version !== escrowPayoutDomain.version ||
    typedData.primaryType !== 'Payout' ||
    !declaresOnlyEscrowPayout(typedData.types)
  ) {
    throw new Error('This is not an escrow payout, so it was not signed.');
  }
  const account = ethereumAccountFromSeed(mnemonic);
  const message = toTypedValue(typedData.types, typedData.primaryType, typedData.message);
  // The types arrive at run time, so viem checks the message against them then, not at compile time.
  const definition: TypedDataDefinition<Record<string, unknown>, string> = {
    domain: { ...typedData.domain, verifyingContract: typedData.domain.verifyingContract as Hex },
    types: typedData.types,
    primaryType: typedData.primaryType,
    message: message as Record<string, unknown>,
  };
  return account.signTypedData(definition);
}

type TypedFields = TypedDataJson['types'];

/** `value` as viem expects a field of `type`: integers as bigints, arrays and structs field by field. */
function toTypedValue(types: TypedFields, type: string, value: unknown): unknown {
  if (type.endsWith(']')) {
    if (!Array.isArray(value)) throw new Error(`Expected an array for ${type}`);
    const itemType = type.slice(0, type.lastIndexOf('['));
    return value.map((item) => toTypedValue(types, itemType, item));
  }
  const fields = types[type];
  if (fields) {
    if (typeof value !== 'object' || value === null) throw new Error(`Expected an object for ${type}`);
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      fields.map((field) => [field.name, toTypedValue(types, field.type, record[field.name])]),
    );
  }
  if (/^u?int\d*$/.test(type)) return toInteger(type, value);
  return value;
}

function toInteger(type: string, value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new Error(`Expected an integer for ${type}, got ${JSON.stringify(value)}`);
}

async function passwordKey(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, [
    'deriveKey',
  ]);
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

function toBase64(data: Uint8Array): string {
  let binary = '';
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary);
}

// Typed arrays rather than bare ArrayBuffers reach WebCrypto: jsdom's ArrayBuffer is not Node's.
function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const view = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) view[index] = binary.charCodeAt(index);
  return view;
}
