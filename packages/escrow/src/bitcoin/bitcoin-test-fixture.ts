import { randomBytes, randomUUID } from 'node:crypto';
import { type BitcoinRegtest, startBitcoinRegtest } from '@covenant/devnets';
import { base64, hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { p2wpkh, Transaction } from '@scure/btc-signer';
import type { DepositAddressIndex, LegTerms, WatchedLeg } from '../chain-adapter.js';
import type { DepositOutput } from '../escrow-chain-adapter.js';
import type { EscrowLeg, LegSigners } from '../types.js';
import type { BitcoinEscrowChain } from './bitcoin-escrow-chain.js';
import { BITCOIN_ADDRESS_FORMATS } from './bitcoin-network.js';
import { createBitcoinRpc } from './bitcoin-rpc.js';
import { createBitcoinEscrowChain } from './create-bitcoin-escrow-chain.js';
import { platformBitcoinKeyFromSeed, platformFeeWalletFromSeed } from './platform-bitcoin-key.js';

export const REGTEST = BITCOIN_ADDRESS_FORMATS.regtest;

/** A party's escrow key as the browser derives it from its seed on test networks (m/84'/1'/0'/0/0). */
export function partyKey(): { privateKey: Uint8Array; publicKey: string } {
  const key = HDKey.fromMasterSeed(randomBytes(32)).derive("m/84'/1'/0'/0/0");
  return { privateKey: key.privateKey!, publicKey: hex.encode(key.publicKey!) };
}

export function freshAddress(): string {
  return p2wpkh(hex.decode(partyKey().publicKey), REGTEST).address as string;
}

/** Signs every input of a PSBT with one key, as a PSBT wallet (or the browser) would. */
export function signPsbt(psbtBase64: string, privateKey: Uint8Array): string {
  const tx = Transaction.fromPSBT(base64.decode(psbtBase64));
  for (let index = 0; index < tx.inputsLength; index++) tx.signIdx(privateKey, index);
  return base64.encode(tx.toPSBT(0));
}

/**
 * A fresh bcoin regtest with the Bitcoin adapter over it (2 confirmations, fee rates 2-50 sat/vB),
 * the platform's key and fee wallet from a random seed, and helpers to open legs, index them and
 * read the node.
 */
export async function startBitcoinFixture() {
  const node: BitcoinRegtest = await startBitcoinRegtest();
  const rpc = createBitcoinRpc(node);
  const seed = randomBytes(32);
  const platformKey = platformBitcoinKeyFromSeed(seed);
  const feeWallet = platformFeeWalletFromSeed(seed, REGTEST);
  const feeWalletOutpoints: { txid: string; vout: number }[] = [];
  const bitcoin: BitcoinEscrowChain = createBitcoinEscrowChain({
    rpcUrl: node.rpcUrl,
    rpcUser: node.rpcUser,
    rpcPassword: node.rpcPassword,
    network: 'regtest',
    feeAddress: feeWallet.address,
    confirmationPolicy: { finality: 'depth', confirmations: 2 },
    platformKey,
    feeRates: { floor: 2n, ceiling: 50n },
    feeWallet: { key: feeWallet.key, outpoints: async () => feeWalletOutpoints },
  });
  let nextKeyIndex = 0;

  /** An asset leg (the seller deposits, the buyer receives) of `requiredAmount` sats, opened. */
  async function openLeg(requiredAmount = 10_000_000n) {
    const buyer = partyKey();
    const seller = partyKey();
    const platformKeyIndex = nextKeyIndex++;
    const signers: LegSigners = {
      buyer: buyer.publicKey,
      seller: seller.publicKey,
      platform: await bitcoin.platformSigner(platformKeyIndex),
    };
    const terms: LegTerms = {
      dealId: randomUUID(),
      leg: 'asset',
      chain: 'BTC',
      symbol: 'BTC',
      tokenAddress: null,
      requiredAmount,
      depositorRefundAddress: freshAddress(),
      receiverPayoutAddress: freshAddress(),
      deadline: new Date(Date.now() + 3_600_000),
      refundAfter: null,
      signers,
    };
    const opened = await bitcoin.openLeg(terms);
    const { dealId, ...rest } = terms;
    const leg: EscrowLeg & { platformKeyIndex: number } = {
      ...rest,
      escrowId: `escrow-${dealId}`,
      depositAddress: opened.depositAddress,
      requiredConfirmations: 2,
      platformKeyIndex,
    };
    return { leg, opened, keys: { buyer, seller } };
  }

  /** An index over the given legs that counts its queries. */
  function indexOf(legs: readonly EscrowLeg[]): DepositAddressIndex & { queries: string[][] } {
    const watched = new Map<string, WatchedLeg>(
      legs.map((leg) => [
        leg.depositAddress,
        { escrowId: leg.escrowId, leg: leg.leg, depositAddress: leg.depositAddress, tokenAddress: null },
      ]),
    );
    const queries: string[][] = [];
    return {
      queries,
      async match(addresses) {
        queries.push([...addresses]);
        return new Map(
          addresses.flatMap((address) => {
            const leg = watched.get(address);
            return leg ? [[address, leg] as const] : [];
          }),
        );
      },
    };
  }

  /** Funds the leg and returns the deposit output (found by its script in the funding transaction). */
  async function deposit(address: string, amount: bigint): Promise<DepositOutput> {
    const txid = await node.fund(address, amount);
    const tx = await rpc<{ vout: { n: number; scriptPubKey: { address?: string; addresses?: string[] } }[] }>(
      'getrawtransaction',
      [txid, true],
    );
    const output = tx.vout.find(
      (out) => out.scriptPubKey.address === address || out.scriptPubKey.addresses?.includes(address),
    );
    if (!output) throw new Error(`funding ${txid} does not pay ${address}`);
    return { txRef: txid, position: output.n, amount };
  }

  return {
    node,
    rpc,
    bitcoin,
    platformKey,
    feeWallet,
    feeWalletOutpoints,
    openLeg,
    indexOf,
    deposit,
    stop: () => node.stop(),
  };
}

export type BitcoinFixture = Awaited<ReturnType<typeof startBitcoinFixture>>;
