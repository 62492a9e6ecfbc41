import { join } from 'node:path';
import type { TypedDataJson } from '@covenant/domain';
import { typedDataFromJson } from '@covenant/escrow/ethereum';
import { privateKeyToAccount } from 'viem/accounts';
import { loadOrCreateKeyFile } from './key-file.js';

/**
 * The platform's escrow key: the third of every escrow's 2-of-3 signers (the mediator key). It only
 * ever signs payout approvals the engine has decided on; it cannot move money alone. This interface
 * is what a KMS or HSM implementation provides in production: an address per chain, and a signature
 * over a payload. The key itself is never returned, logged or sent anywhere.
 */
export interface PlatformSigner {
  /** The platform's signing address (EIP-55) on Ethereum. */
  readonly ethereumAddress: string;
  /** An EIP-712 signature over the typed data, as `eth_signTypedData_v4` would return it. */
  signEthereumTypedData(typedData: TypedDataJson): Promise<string>;
}

/** The signer backed by a key file in DATA_DIR/keys (created on first start, owner-only). */
export async function createFilePlatformSigner(dataDir: string): Promise<PlatformSigner> {
  const account = privateKeyToAccount(
    await loadOrCreateKeyFile(join(dataDir, 'keys', 'platform-ethereum.key')),
  );
  return {
    ethereumAddress: account.address,
    signEthereumTypedData: (typedData) => account.signTypedData(typedDataFromJson(typedData)),
  };
}
