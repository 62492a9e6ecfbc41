import { AppError } from '@covenant/domain';
import { hex } from '@scure/base';
import type { LegTerms, PartySignature } from '../chain-adapter.js';
import { PayoutExpiredError, type SignedTransaction } from '../escrow-chain-adapter.js';
import {
  type BitcoinEscrowChain,
  type BitcoinEscrowChainOptions,
  maxBitcoinPayoutInputs,
} from './bitcoin-escrow-chain.js';
import { coreDustLimit, estimateFeeRate, nodeMinimumFeeRate } from './bitcoin-fee-rules.js';
import { BITCOIN_ADDRESS_FORMATS } from './bitcoin-network.js';
import { bitcoinSigningPayload } from './bitcoin-payout.js';
import { BitcoinRpcError, createBitcoinRpc, RPC_INVALID_PARAMETER } from './bitcoin-rpc.js';
import { broadcastBitcoinTransaction } from './broadcast-bitcoin-transaction.js';
import { buildBitcoinPayout } from './build-bitcoin-payout.js';
import { bumpBitcoinPayoutFee } from './bump-bitcoin-payout-fee.js';
import { finalizeBitcoinPayout } from './finalize-bitcoin-payout.js';
import { multisigCustody } from './multisig-custody.js';
import { addressOutputScript } from './parse-raw-bitcoin.js';
import { readBitcoinOutgoingMovements } from './read-bitcoin-outgoing-movements.js';
import { readBitcoinTxStatus } from './read-bitcoin-tx-status.js';
import { createBitcoinMempoolScanner, scanBitcoinDeposits } from './scan-bitcoin-deposits.js';
import { subscribeBitcoinBlocks } from './subscribe-bitcoin-blocks.js';
import { verifyBitcoinApproval } from './verify-bitcoin-approval.js';

/**
 * The Bitcoin chain over one node's JSON-RPC (Bitcoin Core with -txindex, or bcoin with its
 * transaction index): each leg is a P2WSH 2-of-3 of buyer, seller and the platform's child key
 * for the leg; deposits are outputs paying it; a payout is a PSBT spending the confirmed deposits the
 * engine gives it (every one, up to `maxPayoutInputs`), signed by the giving party and co-signed by
 * the platform. Every read goes to the node uncached.
 */
export function createBitcoinEscrowChain(options: BitcoinEscrowChainOptions): BitcoinEscrowChain {
  const rpc = createBitcoinRpc(options);
  const addressFormat = options.addressFormat ?? BITCOIN_ADDRESS_FORMATS[options.network];
  const dustLimit = options.dustLimit ?? coreDustLimit;
  if (!addressOutputScript(options.feeAddress, addressFormat)) {
    throw new Error(`the BTC fee address ${options.feeAddress} is not a ${options.network} address`);
  }
  if (options.feeRates.floor < 1n || options.feeRates.ceiling < options.feeRates.floor) {
    throw new Error('the fee rate floor must be at least 1 sat/vB and the ceiling at least the floor');
  }
  const scanMempool = createBitcoinMempoolScanner(rpc, addressFormat);
  const custodyOf = (terms: Pick<LegTerms, 'signers'>) => multisigCustody(terms.signers, addressFormat);

  // A fee rate fixed when the payout was built, and signed into it by the parties: should the node's
  // minimum rise above it while approvals are collected (a filling mempool), the node would refuse it
  // every time. It is built again at the current rate and approved again (`PayoutExpiredError`).
  const signPayoutTransaction = async (
    payout: Parameters<BitcoinEscrowChain['signPayoutTransaction']>[0],
    signatures: readonly PartySignature[],
  ): Promise<SignedTransaction> => {
    const signed = finalizeBitcoinPayout(payout, signatures);
    const rate = BigInt(bitcoinSigningPayload(payout).summary.fee_rate_sat_vb);
    const minimum = await nodeMinimumFeeRate(rpc);
    if (minimum !== null && rate < minimum) {
      throw new PayoutExpiredError(
        `its fee rate of ${rate} sat/vB is below the ${minimum} sat/vB the node relays now`,
        'fee_below_minimum',
      );
    }
    return signed;
  };

  const broadcast = (transaction: SignedTransaction) => broadcastBitcoinTransaction(rpc, transaction);

  return {
    chain: 'BTC',
    network: options.network,
    subscribeNewBlocks: (handlers) => subscribeBitcoinBlocks(rpc, handlers),
    feeAddress: options.feeAddress,
    confirmationPolicy: options.confirmationPolicy,
    maxPayoutInputs: options.maxPayoutInputs ?? maxBitcoinPayoutInputs,

    platformSigner: (keyIndex) => options.platformKey.publicKey(keyIndex),

    depositAddress: async (terms) => custodyOf(terms).address,

    async openLeg(terms) {
      const custody = custodyOf(terms);
      return {
        depositAddress: custody.address,
        txRef: null,
        custody: {
          witness_script: hex.encode(custody.witnessScript),
          public_keys: { ...terms.signers },
        },
      };
    },

    scanDeposits: (range, index) => scanBitcoinDeposits(rpc, addressFormat, range, index),

    scanMempool,

    confirmations: (txRef) => readBitcoinTxStatus(rpc, options.confirmationPolicy, txRef),

    async buildPayout(leg, plan, deposits) {
      if (!deposits) throw new Error('a Bitcoin payout spends the leg’s deposit outputs: pass them');
      const custody = custodyOf(leg);
      if (custody.address !== leg.depositAddress) {
        throw new Error(
          `the leg's keys pay ${custody.address}, not its deposit address ${leg.depositAddress}`,
        );
      }
      if (
        'platformKeyIndex' in leg &&
        (await options.platformKey.publicKey(leg.platformKeyIndex)) !== leg.signers.platform
      ) {
        throw new Error(`the platform key ${leg.platformKeyIndex} is not the leg's platform signer`);
      }
      const feeRate = await estimateFeeRate(rpc, options.feeRates);
      return buildBitcoinPayout({ leg, plan, deposits, custody, feeRate, dustLimit, addressFormat });
    },

    verifyApproval: async (payout, approval, expectedSigner) =>
      verifyBitcoinApproval(payout, approval, expectedSigner),

    async cosign(payout, keyIndex) {
      const publicKey = await options.platformKey.publicKey(keyIndex);
      const signed = await options.platformKey.signPsbt(bitcoinSigningPayload(payout).data, keyIndex);
      const check = verifyBitcoinApproval(payout, signed, publicKey);
      if (!check.valid)
        throw new Error(
          `the platform's signature of payout ${payout.payoutRef} is not valid: ${check.reason}`,
        );
      return check.signature;
    },

    signPayoutTransaction,

    async submit(payout, signatures) {
      const transaction = await signPayoutTransaction(payout, signatures);
      await broadcast(transaction);
      return { txRef: transaction.txRef };
    },

    broadcast,

    outgoingMovements: (txRef, leg) =>
      readBitcoinOutgoingMovements(rpc, addressFormat, options.feeAddress, txRef, leg),

    async isSettled(_leg, deposits) {
      if (!deposits)
        throw new Error('whether a Bitcoin leg is settled depends on its deposit outputs: pass them');
      for (const deposit of deposits) {
        // gettxout without the mempool: null once a mined transaction spent the output (bcoin
        // ignores mempool spends even when asked to include the mempool, so neither node counts them).
        if ((await rpc('gettxout', [deposit.txRef, deposit.position, false])) !== null) return false;
      }
      return true;
    },

    async bumpFee(payout, sent, attempt) {
      if (!options.feeWallet) {
        throw new AppError(
          'CHAIN_NOT_AVAILABLE',
          'Bitcoin fee bumping needs the fee wallet key, which is not configured',
        );
      }
      return bumpBitcoinPayoutFee(
        {
          rpc,
          addressFormat,
          feeAddress: options.feeAddress,
          feeRates: options.feeRates,
          estimatedRate: await estimateFeeRate(rpc, options.feeRates),
          dustLimit,
          feeWallet: options.feeWallet,
        },
        payout,
        sent,
        attempt,
      );
    },

    async blockRefAt(height) {
      if (height < 0n) return null;
      try {
        return await rpc<string>('getblockhash', [Number(height)]);
      } catch (error) {
        // "Block height out of range" on Bitcoin Core and bcoin alike.
        if (error instanceof BitcoinRpcError && error.code === RPC_INVALID_PARAMETER) return null;
        throw error;
      }
    },

    currentHeight: async () => BigInt(await rpc<number>('getblockcount')),
  };
}
