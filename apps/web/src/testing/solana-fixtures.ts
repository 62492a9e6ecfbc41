import { base58 } from '@scure/base';
import type { SolanaMessage } from '@/features/escrow/lib/solana-message.js';

/**
 * Fixed Solana accounts and payout messages for the tests of Solana legs. Grace's key is the BIP-39
 * test phrase's at m/44'/501'/0'/0'; the other addresses are the ed25519 keys of the private keys
 * 1, 3, 4, 5, 10, 11 and 12 (32 bytes, big-endian). The two messages were compiled with
 * @solana/kit 8.4.0, @solana-program/token 0.16.1 and @solana-program/system 0.14.1 (legacy
 * message, fee payer the relayer, lifetime the nonce account's nonce), so the parser is tested
 * against bytes it did not write.
 */
export const solanaAccounts = {
  grace: 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk',
  ada: '6ASf5EcmmEHTgDJ4X4ZT5vT6iHVJBXPg5AN5YoTCpGWt',
  platform: 'HPYVwAQmskwT1qEEeRzhoomyfyupJGASQQtCXSNG8XS2',
  fee: 'J3qYF7YJMKCqQke47UQwiHizgFUXapHxRxKmxbkar89x',
  relayer: 'J66fMDgSVVcdRgKucj1D5ssXAcQvg35JopvHNQo6cGY6',
  multisig: '6YqXjX1oAD9nndCZBp7m68nFgoPFHxB41J42cTtmikUY',
  nonceAccount: '5Z9UDgBHm5AEjQbvvkgicKwEuFAdx35TE95KozK1iyVL',
  wsolAccount: '2EmfMLLtBz9tkBoEwyiaBwqWzhiJn7UW2XJq7V9D5LjP',
  usdc: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  nonce: 'GfVcyD4kkTrj4bKc7WA9sZCin9JDbdT4Zkd3EittNR1W',
  /** ATA(multisig, USDC), ATA(ada, USDC), ATA(fee, USDC), as @solana-program/token's findAssociatedTokenPda finds them. */
  usdcTokenAccount: '7QwaM5z6QnWAoHBA2Jsf4Zcg7jAddw9TPKR4GocDWD14',
  adaUsdcAccount: '5BqbvV5otXedd8y1USsemDVWWYDgQ4nx6NLXR4F8iRjX',
  feeUsdcAccount: '2twkkyL3K7CCtJpB8sczoEeNjJZTy95NiSq8y3ViYZqp',
} as const;

const a = solanaAccounts;

/**
 * A USDC leg of 250 USDC (250 000 000 base units) released by Grace: AdvanceNonceAccount, the two
 * recipients' associated token accounts created (idempotent), 249.975 USDC to Ada and the 1 bp fee
 * (0.025 USDC) to the fee address by TransferChecked from the leg's account with the multisig as
 * authority (Grace and the platform signing), then CloseAccount of the leg's account to the relayer.
 */
export const usdcPayoutMessage = [
  'AwIID/3k+6AwrQAvfC99TDMfSdE/sOx0fs7r7GNPH/TLyp3v8DYnYkanW53jNJ7UKxXiMvZRj8IPX81PHWToH5vSWPfzgWJu',
  'QecCfqQxv+MAnpS90lp0a+7EaJSNbDx8XcmlSxwqOCBZyad8pfp1DLe4ajSOLi/kdaj7u2j8xQ8eIar3PjWCp8VSXicJ2Io8',
  'zkOxlyKygu22AgMjI5rr3p/oZlpDqujrve25aUFdAgsBIRGAInIqV3dYxfqI3NnYohFlM19IMDDEPLcOc2MZSHqq7PF0Wj3u',
  'eKKkj+wU69thmK3bAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABMtav2rXn79au8yvzCadhc0mUe1LiFtYafJBrt',
  '8KW6KVJyUAgb3NwugQHsvU9uNTbnDRS+kfRRUnMmuX0N4g5RjJclj04kifG7PRApFI4NgwtaE5na/xCEBI572Nvp+FnG+nrz',
  'vtutOj1l82qryXQxsbvkwtL24OR8pgIDRS9dYf1QuOOxROokT793N/VQvI3QwmULvBqtqDPKF/+NvzKbBqfVFxksVo7gioRf',
  'c9KXiM8DXDFFshqzRNgGLqlAAAAG3fbh12Whk9nL4UbO63msHLSF7V9bN5E6jPWFfv8Aqei7vE1Ra+tTmOXJXnqpYGJFr6uZ',
  '3qVioe0TWfoE9hiVBgcDBQ0ABAQAAAAKBgAECAsHDgEBCgYAAwwLBw4BAQ4GBgsECQECCgzYUOYOAAAAAAYOBgYLAwkBAgoM',
  'qGEAAAAAAAAGDgUGAAkBAgEJ',
].join('');

export const usdcPayoutSummary = {
  transfers: [
    { kind: 'payout' as const, to: a.ada, amount: '249975000' },
    { kind: 'fee' as const, to: a.fee, amount: '25000' },
  ],
  mint: a.usdc,
  network_fee: '0',
};

export const usdcCustody = {
  multisig: a.multisig,
  token_account: a.usdcTokenAccount,
  nonce_account: a.nonceAccount,
  mint: a.usdc,
  threshold: 2,
  public_keys: { buyer: a.ada, seller: a.grace, platform: a.platform },
  solana_pay_recipient: a.multisig,
};

/**
 * A SOL leg of 1.5 SOL (1 500 000 000 lamports) released by Grace: AdvanceNonceAccount,
 * CloseAccount of the leg's wrapped-SOL account to the relayer, then the relayer's System transfers
 * of 1.49985 SOL to Ada and the 1 bp fee (0.00015 SOL) to the fee address.
 */
export const solPayoutMessage = [
  'AwIEC/3k+6AwrQAvfC99TDMfSdE/sOx0fs7r7GNPH/TLyp3v8DYnYkanW53jNJ7UKxXiMvZRj8IPX81PHWToH5vSWPfzgWJu',
  'QecCfqQxv+MAnpS90lp0a+7EaJSNbDx8XcmlSxJivG1UCKPE4CWqDBXmT2kZfNs4kRvlrTRKlJd53z2mQ6ro673tuWlBXQIL',
  'ASERgCJyKld3WMX6iNzZ2KIRZTNMtav2rXn79au8yvzCadhc0mUe1LiFtYafJBrt8KW6Kf1QuOOxROokT793N/VQvI3QwmUL',
  'vBqtqDPKF/+NvzKbAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABSclAIG9zcLoEB7L1PbjU25w0UvpH0UVJzJrl9',
  'DeIOUQan1RcZLFaO4IqEX3PSl4jPA1wxRbIas0TYBi6pQAAABt324ddloZPZy+FGzut5rBy0he1fWzeROoz1hX7/AKnou7xN',
  'UWvrU5jlyV56qWBiRa+rmd6lYqHtE1n6BPYYlQQHAwQJAAQEAAAACgUDAAgBAgEJBwIABQwCAAAAEOVlWQAAAAAHAgAGDAIA',
  'AADwSQIAAAAAAA==',
].join('');

export const solPayoutSummary = {
  transfers: [
    { kind: 'payout' as const, to: a.ada, amount: '1499850000' },
    { kind: 'fee' as const, to: a.fee, amount: '150000' },
  ],
  mint: null,
  network_fee: '0',
};

export const solCustody = {
  multisig: a.multisig,
  token_account: a.wsolAccount,
  nonce_account: a.nonceAccount,
  mint: 'So11111111111111111111111111111111111111112',
  threshold: 2,
  public_keys: { buyer: a.ada, seller: a.grace, platform: a.platform },
  solana_pay_recipient: a.wsolAccount,
};

/** The bytes of a legacy message: the inverse of `parseLegacyMessage`, to build altered messages in tests. */
export function encodeLegacyMessage(message: SolanaMessage): Uint8Array {
  const out: number[] = [];
  const shortVec = (value: number) => {
    let rest = value;
    do {
      const low = rest & 0x7f;
      rest >>= 7;
      out.push(rest ? low | 0x80 : low);
    } while (rest);
  };
  const index = (address: string) => {
    const found = message.accountKeys.indexOf(address);
    if (found < 0) throw new Error(`${address} is not among the account keys`);
    return found;
  };
  out.push(message.numRequiredSignatures, message.numReadonlySigned, message.numReadonlyUnsigned);
  shortVec(message.accountKeys.length);
  for (const key of message.accountKeys) out.push(...base58.decode(key));
  out.push(...base58.decode(message.recentBlockhash));
  shortVec(message.instructions.length);
  for (const instruction of message.instructions) {
    out.push(index(instruction.programId));
    shortVec(instruction.accounts.length);
    for (const account of instruction.accounts) out.push(index(account));
    shortVec(instruction.data.length);
    out.push(...instruction.data);
  }
  return Uint8Array.from(out);
}
