import { describe, expect, it } from 'vitest';
import type { Chain } from '../assets.js';
import { partyAddressChains } from './party-address-chains.js';
import { type BitcoinNetwork, validateChainAddress } from './validate-chain-address.js';

const check = (chain: Chain, address: string, bitcoinNetwork: BitcoinNetwork = 'mainnet') =>
  validateChainAddress(chain, address, { bitcoinNetwork });

/** The same text with the character at `index` replaced by `by`. */
const corrupt = (address: string, index: number, by: string) =>
  `${address.slice(0, index)}${by}${address.slice(index + 1)}`;

describe('validateChainAddress on Ethereum', () => {
  // The four examples of EIP-55 itself.
  it.each([
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ])('accepts the EIP-55 example %s, and all lower or all upper case', (address) => {
    expect(check('ETH', address)).toEqual({ ok: true });
    expect(check('ETH', `0x${address.slice(2).toLowerCase()}`)).toEqual({ ok: true });
    expect(check('ETH', `0x${address.slice(2).toUpperCase()}`)).toEqual({ ok: true });
  });

  it('refuses a checksummed address with one letter in the wrong case', () => {
    // 'a' at index 2 flipped to 'A': the hex digits are unchanged, only the checksum breaks.
    expect(check('ETH', '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toEqual({
      ok: false,
      reason: 'The address fails its EIP-55 checksum (mixed case)',
    });
  });

  it.each([
    ['one digit short', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe'],
    ['no 0x', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed00'],
    ['a non-hex character', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg'],
    ['the zero address', '0x0000000000000000000000000000000000000000'],
    ['a space', ' 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ['nothing', ''],
  ])('refuses %s', (_name, address) => {
    expect(check('ETH', address).ok).toBe(false);
  });
});

describe('validateChainAddress on Bitcoin', () => {
  it.each([
    // Satoshi's genesis coinbase address (P2PKH) and the Bitcoin wiki's P2SH example.
    ['mainnet', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
    ['mainnet', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
    // BIP-173 valid addresses (v0, 20 and 32 bytes; upper case is allowed).
    ['mainnet', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4'],
    ['testnet', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7'],
    // BIP-350 valid addresses (v1+ with bech32m).
    ['mainnet', 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y'],
    ['mainnet', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
    ['testnet', 'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c'],
    // Testnet and regtest share base58 version bytes; regtest segwit uses bcrt.
    ['testnet', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'],
    ['regtest', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'],
    ['regtest', '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc'],
    ['regtest', 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080'],
    // bcoin (the local regtest node) writes regtest segwit addresses with `rb`.
    ['regtest', 'rb1qqv9pzxqlyckngw6zf9g9whn9d3eh4qvg6d89ve'],
  ] as const)('accepts on %s %s', (network, address) => {
    expect(check('BTC', address, network)).toEqual({ ok: true });
  });

  it.each([
    [
      'the genesis address with its last character changed',
      corrupt('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 33, 'b'),
    ],
    ['a P2SH address with one character changed', corrupt('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 5, 'X')],
    ['a v0 address with one character changed', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'],
    // BIP-350 invalid vectors.
    ['v1 with a bech32 checksum', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd'],
    ['v0 with a bech32m checksum', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh'],
    ['a 16-byte v0 program', 'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P'],
    // BIP-173: mixed case is invalid.
    ['mixed case', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8F3T4'],
    ['a testnet address on mainnet', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7'],
    ['a testnet base58 address on mainnet', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'],
    ['a bcoin regtest address on mainnet', 'rb1qqv9pzxqlyckngw6zf9g9whn9d3eh4qvg6d89ve'],
    ['an Ethereum address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
  ])('refuses on mainnet %s', (_name, address) => {
    expect(check('BTC', address, 'mainnet').ok).toBe(false);
  });

  // The five kinds of payout address, for one key on each network (BIP-84's m/84'/0'/0'/0/0 key,
  // 0330d54f…91af3c; P2WSH over a 1-of-1 multisig of it, P2TR over its x coordinate, P2SH wrapping its
  // P2WPKH), written by @scure/btc-signer 2.4.1. Mainnet's P2WPKH is BIP-84's own vector.
  const kinds = {
    mainnet: {
      P2WPKH: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      P2WSH: 'bc1q2ym7tl8n85l4ktc5g4jte86nvq7k6vp8v6gf8j5rgrwcsu9tcdksj6ethm',
      P2TR: 'bc1p8knh0enfv47gmpuf66528zd4jtkgjq4sv5w5l2gqwgk8exu2ynns9g8c9m',
      P2PKH: '1JaUQDVNRdhfNsVncGkXedaPSM5Gc54Hso',
      P2SH: '3GtVZYzsKF6Feikdjd4bDyPdAiyeHANY9b',
    },
    testnet: {
      P2WPKH: 'tb1qcr8te4kr609gcawutmrza0j4xv80jy8zmfp6l0',
      P2WSH: 'tb1q2ym7tl8n85l4ktc5g4jte86nvq7k6vp8v6gf8j5rgrwcsu9tcdks9j0yd5',
      P2TR: 'tb1p8knh0enfv47gmpuf66528zd4jtkgjq4sv5w5l2gqwgk8exu2ynnsjq3hl5',
      P2PKH: 'my6RhGaMEf8v9yyQKqiuUYniJLfyU4gzqe',
      P2SH: '2N8ShdHvtvhbbrWPBQkgTqvNtP5Bp33veEi',
    },
    regtest: {
      P2WPKH: 'bcrt1qcr8te4kr609gcawutmrza0j4xv80jy8zeqchgx',
      P2WSH: 'bcrt1q2ym7tl8n85l4ktc5g4jte86nvq7k6vp8v6gf8j5rgrwcsu9tcdksgt9zcw',
      P2TR: 'bcrt1p8knh0enfv47gmpuf66528zd4jtkgjq4sv5w5l2gqwgk8exu2ynnslem32w',
      // Testnet and regtest share the base58 version bytes: these two are the testnet ones.
      P2PKH: 'my6RhGaMEf8v9yyQKqiuUYniJLfyU4gzqe',
      P2SH: '2N8ShdHvtvhbbrWPBQkgTqvNtP5Bp33veEi',
    },
  } as const;
  const networks = Object.keys(kinds) as BitcoinNetwork[];
  const cases = networks.flatMap((network) =>
    Object.entries(kinds[network]).map(([kind, address]) => [network, kind, address] as const),
  );

  it.each(cases)('accepts on %s a %s address', (network, _kind, address) => {
    expect(check('BTC', address, network)).toEqual({ ok: true });
  });

  it.each(cases)('refuses a %s %s address on the other networks', (network, _kind, address) => {
    const base58 = !/^(bc|tb|bcrt)1/.test(address);
    // Testnet and regtest base58 addresses are the same text: each is valid on both.
    const sharesBase58 = (other: BitcoinNetwork) => base58 && network !== 'mainnet' && other !== 'mainnet';
    for (const other of networks) {
      if (other === network || sharesBase58(other)) continue;
      expect(check('BTC', address, other), `${address} on ${other}`).toMatchObject({ ok: false });
    }
  });

  it('refuses mainnet addresses on regtest', () => {
    expect(check('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'regtest')).toEqual({
      ok: false,
      reason: 'Not a Bitcoin regtest address',
    });
    expect(check('BTC', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'regtest').ok).toBe(false);
  });
});

describe('validateChainAddress on Solana', () => {
  it.each([
    // The System Program (32 zero bytes) and the SPL Token Program.
    '11111111111111111111111111111111',
    'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  ])('accepts %s', (address) => {
    expect(check('SOL', address)).toEqual({ ok: true });
  });

  // A Solana address is a public key without a checksum: a changed character is caught only when it
  // leaves the base58 alphabet or changes the decoded length.
  it.each([
    ['a character outside base58', corrupt('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 5, '0')],
    ['one character short', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D'],
    ['one zero byte short', '1111111111111111111111111111111'],
    ['a Bitcoin address', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ])('refuses %s', (_name, address) => {
    expect(check('SOL', address).ok).toBe(false);
  });
});

describe('partyAddressChains', () => {
  it('pays each party on the chain it receives on and refunds on the chain it deposits from', () => {
    const deal = { asset_chain: 'BTC', stable_chain: 'ETH' } as const;
    expect(partyAddressChains('buyer', deal)).toEqual({ payout: 'BTC', refund: 'ETH' });
    expect(partyAddressChains('seller', deal)).toEqual({ payout: 'ETH', refund: 'BTC' });
  });
});
