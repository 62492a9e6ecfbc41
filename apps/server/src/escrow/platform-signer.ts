import { join } from 'node:path';
import type { TypedDataJson } from '@covenant/domain';
import {
  type BitcoinAddressFormat,
  type BitcoinFeeWalletKey,
  type BitcoinPlatformKey,
  platformBitcoinKeyFromSeed,
  platformFeeWalletFromSeed,
} from '@covenant/escrow/bitcoin';
import { type ForeignReturn, foreignReturnTypedData, typedDataFromJson } from '@covenant/escrow/ethereum';
import { type SolanaPlatformKey, solanaPlatformKeyFromSeed } from '@covenant/escrow/solana';
import { type Address, hexToBytes } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadOrCreateKeyFile } from './key-file.js';

/**
 * The platform's escrow key: the third of every escrow's 2-of-3 signers (the mediator key). It only
 * ever signs payout approvals the engine has decided on; it cannot move money alone. This interface
 * is what a KMS or HSM implementation provides in production: an address or key per chain, and a
 * signature over a payload. The key itself is never returned, logged or sent anywhere.
 */
export interface PlatformSigner {
  /** The platform's signing address (EIP-55) on Ethereum. */
  readonly ethereumAddress: string;
  /** An EIP-712 signature over the typed data, as `eth_signTypedData_v4` would return it. */
  signEthereumTypedData(typedData: TypedDataJson): Promise<string>;
  /** An EIP-712 signature sending back a foreign asset that reached the escrow at `escrow` (see CovenantEscrow.sol). */
  signEthereumForeignReturn(chainId: number, escrow: Address, foreignReturn: ForeignReturn): Promise<string>;
  /** Bitcoin: a BIP 32 child key per leg (m/0/index of the platform's Bitcoin root). */
  readonly bitcoin: BitcoinPlatformKey;
  /** Bitcoin: the fee wallet (m/1/0 of the same root): the BTC fee address, spent only to push stuck payouts (CPFP). */
  bitcoinFeeWallet(addressFormat: BitcoinAddressFormat): { key: BitcoinFeeWalletKey; address: string };
  /**
   * Solana (SLIP-0010 ed25519): a multisig signer per leg (m/44'/501'/index'/0'), the relayer that
   * pays fees and rent, and the keypairs of the accounts the platform creates for a leg.
   */
  readonly solana: SolanaPlatformKey;
}

/**
 * The signer backed by key files in DATA_DIR/keys (created on first start, owner-only):
 * `platform-ethereum.key`, `platform-bitcoin.key` (the 32-byte seed of the Bitcoin root) and
 * `platform-solana.key` (the 32-byte seed of the Solana keys).
 */
export async function createFilePlatformSigner(dataDir: string): Promise<PlatformSigner> {
  const account = privateKeyToAccount(
    await loadOrCreateKeyFile(join(dataDir, 'keys', 'platform-ethereum.key')),
  );
  const bitcoinSeed = hexToBytes(await loadOrCreateKeyFile(join(dataDir, 'keys', 'platform-bitcoin.key')));
  const solanaSeed = hexToBytes(await loadOrCreateKeyFile(join(dataDir, 'keys', 'platform-solana.key')));
  return {
    ethereumAddress: account.address,
    signEthereumTypedData: (typedData) => account.signTypedData(typedDataFromJson(typedData)),
    signEthereumForeignReturn: (chainId, escrow, foreignReturn) =>
      account.signTypedData(foreignReturnTypedData(chainId, escrow, foreignReturn)),
    bitcoin: platformBitcoinKeyFromSeed(bitcoinSeed),
    bitcoinFeeWallet: (addressFormat) => platformFeeWalletFromSeed(bitcoinSeed, addressFormat),
    solana: solanaPlatformKeyFromSeed(solanaSeed),
  };
}
