import { AppError, type Chain } from '@covenant/domain';

/** What `POST /wallets/connect` names the signer with: an address, or on Bitcoin a public key. */
export interface WalletSignerFields {
  address?: string | undefined;
  public_key?: string | undefined;
}

/**
 * The signer the caller registers on `chain`. A Bitcoin escrow is a 2-of-3 multisig over public
 * keys (DESIGN §6), and an address only commits to a key's hash, so Bitcoin takes `public_key`;
 * every other chain signs with an address.
 */
export function readWalletSigner(chain: Chain, fields: WalletSignerFields): string {
  if (chain === 'BTC') {
    if (fields.public_key !== undefined) return fields.public_key;
    const message =
      'Bitcoin escrow needs a public key, not an address: send public_key, your compressed secp256k1 public key (66 hex digits)';
    throw new AppError('INVALID_PUBLIC_KEY', message, {
      in: 'body',
      issues: [{ path: fields.address === undefined ? '/public_key' : '/address', message }],
    });
  }
  if (fields.address !== undefined && fields.public_key === undefined) return fields.address;
  const message = `On ${chain} you sign with an address: send address, not public_key`;
  throw new AppError('VALIDATION_FAILED', message, {
    in: 'body',
    issues: [{ path: fields.address === undefined ? '/address' : '/public_key', message }],
  });
}
