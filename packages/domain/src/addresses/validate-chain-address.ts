import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58, bech32, bech32m, createBase58check } from '@scure/base';
import type { Chain } from '../assets.js';

export const bitcoinNetworks = ['mainnet', 'testnet', 'regtest'] as const;
export type BitcoinNetwork = (typeof bitcoinNetworks)[number];

export interface ChainAddressOptions {
  /** Which Bitcoin network's version bytes and bech32 prefix a BTC address must carry. */
  bitcoinNetwork: BitcoinNetwork;
}

export type AddressCheck = { ok: true } | { ok: false; reason: string };

const ok: AddressCheck = { ok: true };
const refused = (reason: string): AddressCheck => ({ ok: false, reason });

/**
 * Whether `address` is a well-formed address on `chain`, checksum included, so a typo never becomes
 * the place a deal pays out to. Ethereum: 0x + 40 hex digits, mixed case only with a valid EIP-55
 * checksum, never the zero address. Bitcoin: base58check P2PKH/P2SH with the network's version
 * byte, or segwit (BIP-173 bech32 for v0, BIP-350 bech32m for v1+) with the network's prefix.
 * Solana: base58 of exactly 32 bytes.
 */
export function validateChainAddress(
  chain: Chain,
  address: string,
  options: ChainAddressOptions,
): AddressCheck {
  if (address.trim() !== address || address === '') return refused('The address is empty or has spaces');
  switch (chain) {
    case 'ETH':
      return validateEthereumAddress(address);
    case 'BTC':
      return validateBitcoinAddress(address, options.bitcoinNetwork);
    case 'SOL':
      return validateSolanaAddress(address);
  }
}

function validateEthereumAddress(address: string): AddressCheck {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
    return refused('An Ethereum address is 0x followed by 40 hexadecimal digits');
  }
  const hex = address.slice(2);
  if (/^0+$/.test(hex)) return refused('The zero address cannot receive or refund anything');
  // All one case carries no checksum (EIP-55 keeps those valid); mixed case must be the checksum.
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return ok;
  return hex === eip55Hex(hex) ? ok : refused('The address fails its EIP-55 checksum (mixed case)');
}

/** The 40 hex digits in EIP-55 case: a letter is upper case when its nibble of keccak-256(lowercase hex) is ≥ 8. */
function eip55Hex(hex: string): string {
  const lower = hex.toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(lower));
  let result = '';
  for (let i = 0; i < lower.length; i++) {
    const byte = hash[i >> 1]!;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    result += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  }
  return result;
}

// Regtest segwit addresses are `bcrt1…` in Bitcoin Core and `rb1…` in bcoin (the local devnet): both.
const bitcoinVersions: Record<BitcoinNetwork, { p2pkh: number; p2sh: number; hrps: readonly string[] }> = {
  mainnet: { p2pkh: 0x00, p2sh: 0x05, hrps: ['bc'] },
  testnet: { p2pkh: 0x6f, p2sh: 0xc4, hrps: ['tb'] },
  regtest: { p2pkh: 0x6f, p2sh: 0xc4, hrps: ['bcrt', 'rb'] },
};

const base58check = createBase58check(sha256);

function validateBitcoinAddress(address: string, network: BitcoinNetwork): AddressCheck {
  const expected = bitcoinVersions[network];
  const hrp = expected.hrps.find((prefix) => address.toLowerCase().startsWith(`${prefix}1`));
  if (hrp) return validateSegwitAddress(address, hrp);
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return refused(`Not a Bitcoin ${network} address (bad characters or checksum)`);
  }
  if (payload.length !== 21 || (payload[0] !== expected.p2pkh && payload[0] !== expected.p2sh)) {
    return refused(`Not a Bitcoin ${network} address`);
  }
  return ok;
}

/** BIP-173 and BIP-350: witness version 0 with bech32 and a 20- or 32-byte program; 1 to 16 with bech32m. */
function validateSegwitAddress(address: string, hrp: string): AddressCheck {
  const v0 = bech32.decodeUnsafe(address);
  const decoded = v0 ?? bech32m.decodeUnsafe(address);
  if (!decoded || decoded.prefix !== hrp || decoded.words.length === 0) {
    return refused('The segwit address fails its checksum');
  }
  const [version, ...words] = decoded.words as [number, ...number[]];
  if (version > 16) return refused('Unknown segwit version');
  if ((version === 0) !== Boolean(v0)) {
    return refused(version === 0 ? 'Segwit v0 must use bech32' : 'Segwit v1+ must use bech32m');
  }
  const program = bech32.fromWordsUnsafe(words);
  if (!program || program.length < 2 || program.length > 40) return refused('Invalid segwit program');
  if (version === 0 && program.length !== 20 && program.length !== 32) {
    return refused('A segwit v0 program is 20 or 32 bytes');
  }
  return ok;
}

function validateSolanaAddress(address: string): AddressCheck {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(address);
  } catch {
    return refused('A Solana address is base58 text');
  }
  return bytes.length === 32 ? ok : refused('A Solana address is 32 bytes in base58');
}
