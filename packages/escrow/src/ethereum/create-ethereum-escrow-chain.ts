import {
  covenantEscrowAbi,
  covenantEscrowFactoryAbi,
  ETH_TOKEN,
  foreignArrivalId,
  predictEscrowAddress,
} from '@covenant/contracts';
import { AppError, type TypedDataJson } from '@covenant/domain';
import {
  type Address,
  BlockNotFoundError,
  createPublicClient,
  defineChain,
  getAddress,
  type Hex,
  http,
  isHex,
  type PublicClient,
  recoverTypedDataAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { LegTerms, UnsignedPayout } from '../chain-adapter.js';
import type { SignedTransaction as AnySignedTransaction, NewBlockHandlers } from '../escrow-chain-adapter.js';
import { subscribeOverWebSocket } from '../subscribe-over-websocket.js';
import { broadcastTransaction } from './broadcast-transaction.js';
import { buildEthereumPayout } from './build-ethereum-payout.js';
import { canonicalSignature } from './canonical-signature.js';
import { contractLegTerms } from './contract-leg-terms.js';
import type {
  EthereumEscrowChain,
  EthereumEscrowChainOptions,
  SignedTransaction,
} from './ethereum-escrow-chain.js';
import { typedDataFromJson } from './payout-typed-data.js';
import { readOutgoingMovements } from './read-outgoing-movements.js';
import { readTxStatus } from './read-tx-status.js';
import { scanEscrowDeposits } from './scan-escrow-deposits.js';
import { bumpRelayerTransaction, signRelayerTransaction } from './sign-relayer-transaction.js';

const DEFAULT_MAX_BLOCKS_PER_SCAN = 2000;

// The factory's createEscrow bubbles up the escrow's initialize() errors.
const factoryCallAbi = [
  ...covenantEscrowFactoryAbi,
  ...covenantEscrowAbi.filter((item) => item.type === 'error'),
];

/**
 * The Ethereum chain over one node: escrows are the factory's CREATE2 clones, the relayer account
 * pays gas for the platform's transactions (deployments, payouts, deadline refunds), and every
 * read goes to the node uncached, since confirmations and reorg checks need the tip as it is now.
 */
export function createEthereumEscrowChain(options: EthereumEscrowChainOptions): EthereumEscrowChain {
  const chain = defineChain({
    id: options.chainId,
    name: `ethereum-${options.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const client: PublicClient = createPublicClient({
    chain,
    transport: http(options.rpcUrl),
    cacheTime: 0,
    pollingInterval: 500,
  });
  const relayer = privateKeyToAccount(options.relayerKey);
  const factory = getAddress(options.escrowFactory);
  const tokenAddresses = options.tokens.flatMap((token) =>
    token.address ? [getAddress(token.address)] : [],
  );
  const maxBlocksPerScan = options.maxBlocksPerScan ?? DEFAULT_MAX_BLOCKS_PER_SCAN;

  const escrowAddressOf = (terms: LegTerms): Address =>
    getAddress(predictEscrowAddress(factory, contractLegTerms(terms, options.feeAddress)));

  const hasCode = async (address: Address) => {
    const code = await client.getCode({ address });
    return code !== undefined && code !== '0x';
  };

  /** The nonce the escrow's next payout must carry; 0 before the escrow is deployed. */
  const escrowNonce = async (depositAddress: string): Promise<bigint> => {
    const address = getAddress(depositAddress);
    if (!(await hasCode(address))) return 0n;
    return client.readContract({ address, abi: covenantEscrowAbi, functionName: 'nonce' });
  };

  const signEscrowCall = (depositAddress: string, functionName: string, args: readonly unknown[]) =>
    signRelayerTransaction(client, relayer, options.chainId, {
      address: getAddress(depositAddress),
      abi: covenantEscrowAbi,
      functionName,
      args,
    });

  const signPayoutTransaction = async (
    payout: UnsignedPayout,
    signatures: readonly { signer: string; signature: string }[],
  ): Promise<SignedTransaction> => {
    const typedData = payoutTypedDataOf(payout, options.chainId);
    const { action, recipients, amounts, nonce } = typedData.message;
    // The contract checks that they come from distinct signers, in any order.
    const signed = signatures.map(({ signer, signature }) => {
      if (!isHex(signature)) {
        throw new AppError('INVALID_SIGNATURE', `The ${signer}'s signature is not hex`);
      }
      return signature;
    });
    return signEscrowCall(typedData.domain.verifyingContract, 'executePayout', [
      action,
      recipients,
      amounts,
      nonce,
      signed,
    ]);
  };

  const broadcast = (transaction: AnySignedTransaction) =>
    broadcastTransaction(client, hexTransaction(transaction));

  const recoverSigner = async (payout: UnsignedPayout, signature: string) => {
    const typedData = payoutTypedDataOf(payout, options.chainId);
    const canonical = canonicalSignature(signature);
    if (!canonical) return null;
    try {
      return getAddress(await recoverTypedDataAddress({ ...typedData, signature: canonical }));
    } catch {
      return null;
    }
  };

  const signDeployment = async (terms: LegTerms) => {
    const depositAddress = escrowAddressOf(terms);
    if (await hasCode(depositAddress)) return { depositAddress, transaction: null };
    const transaction = await signRelayerTransaction(client, relayer, options.chainId, {
      address: factory,
      abi: factoryCallAbi,
      functionName: 'createEscrow',
      args: [contractLegTerms(terms, options.feeAddress)],
    });
    return { depositAddress, transaction };
  };

  const deployEscrow = async (terms: LegTerms) => {
    const { depositAddress, transaction } = await signDeployment(terms);
    if (!transaction) return { depositAddress, txRef: null };
    await broadcast(transaction);
    const receipt = await client.waitForTransactionReceipt({ hash: transaction.txRef });
    if (receipt.status !== 'success' || !(await hasCode(depositAddress))) {
      throw new Error(`deploying the escrow at ${depositAddress} failed in ${transaction.txRef}`);
    }
    return { depositAddress, txRef: transaction.txRef };
  };

  const bumpRelayer = (sent: AnySignedTransaction) =>
    bumpRelayerTransaction(client, relayer, hexTransaction(sent));

  const { wsUrl } = options;
  return {
    chain: 'ETH',
    chainId: options.chainId,
    ...(wsUrl
      ? {
          subscribeNewBlocks: (handlers: NewBlockHandlers) =>
            subscribeOverWebSocket(wsUrl, 'eth_subscribe', ['newHeads'], handlers),
        }
      : {}),
    confirmationPolicy: options.confirmationPolicy,
    relayerAddress: relayer.address,
    // The escrow's TRAVEL action pays part of a leg and leaves it open (ADR 021).
    partialPayouts: true,

    depositAddress: async (terms) => escrowAddressOf(terms),

    platformSigner: async () => getAddress(options.platformSigner.ethereumAddress),

    deployEscrow,

    signDeployment,

    isDeployed: (depositAddress) => hasCode(getAddress(depositAddress)),

    async openLeg(terms) {
      const { depositAddress, txRef } = await deployEscrow(terms);
      return { depositAddress, txRef, custody: null };
    },

    scanDeposits: (range, index) =>
      scanEscrowDeposits(client, tokenAddresses, maxBlocksPerScan, range, index),

    confirmations: (txRef) => readTxStatus(client, options.confirmationPolicy, txRef),

    // Signed for the escrow's next nonce as the chain has it now: a payout built before a travel
    // payout ran is refused by the contract (InvalidNonce) and must be built and signed again.
    buildPayout: async (leg, plan) =>
      buildEthereumPayout(options.chainId, leg, plan, await escrowNonce(leg.depositAddress)),

    recoverSigner,

    async verifyApproval(payout, approval, expectedSigner) {
      const recovered = await recoverSigner(payout, approval);
      const canonical = canonicalSignature(approval);
      if (canonical && recovered && recovered.toLowerCase() === expectedSigner.toLowerCase()) {
        // Stored as the contract will take it (v 27/28, low s), whatever form it came in.
        return { valid: true, signature: canonical };
      }
      return {
        valid: false,
        signer: recovered,
        reason: recovered ? 'signed by another key' : 'not an EIP-712 signature over this payout',
      };
    },

    async cosign(payout) {
      // Checked to be this chain's payout typed data, then signed as stored.
      payoutTypedDataOf(payout, options.chainId);
      return options.platformSigner.signEthereumTypedData(payout.signingPayload as TypedDataJson);
    },

    signPayoutTransaction,

    async submit(payout, signatures) {
      const transaction = await signPayoutTransaction(payout, signatures);
      await broadcast(transaction);
      return { txRef: transaction.txRef };
    },

    signRefundAfterDeadline: (depositAddress) => signEscrowCall(depositAddress, 'refundAfterDeadline', []),

    async findDeadlineRefund(depositAddress, refundAfter) {
      const fromBlock = await firstBlockAtOrAfter(client, BigInt(Math.floor(refundAfter.getTime() / 1000)));
      if (fromBlock === null) return null;
      const [log] = await client.getContractEvents({
        address: getAddress(depositAddress),
        abi: covenantEscrowAbi,
        eventName: 'RefundedAfterDeadline',
        fromBlock,
        toBlock: 'latest',
      });
      return log?.transactionHash ?? null;
    },

    async signReturnForeignAsset(depositAddress, request) {
      const escrow = getAddress(depositAddress);
      if (!isHex(request.txRef)) throw new Error('a foreign deposit is named by its transaction hash');
      const foreignReturn = {
        arrival: foreignArrivalId(request.txRef, request.position),
        asset: getAddress(request.tokenAddress ?? ETH_TOKEN),
        to: getAddress(request.to),
        amount: request.amount,
      };
      const signature = await options.platformSigner.signEthereumForeignReturn(
        options.chainId,
        escrow,
        foreignReturn,
      );
      return signEscrowCall(escrow, 'returnForeignAsset', [
        foreignReturn.arrival,
        foreignReturn.asset,
        foreignReturn.to,
        foreignReturn.amount,
        [signature],
      ]);
    },

    signSweep: (depositAddress) => signEscrowCall(depositAddress, 'sweep', []),

    bumpFee: async (_payout, sent) => ({ replaces: true as const, transaction: await bumpRelayer(sent) }),

    bumpRelayerTransaction: bumpRelayer,

    broadcast,

    outgoingMovements: (txRef, leg) =>
      readOutgoingMovements(client, txRef, leg.depositAddress, leg.depositorRefundAddress),

    async isSettled(leg) {
      const address = getAddress(leg.depositAddress);
      if (!(await hasCode(address))) return false;
      return client.readContract({ address, abi: covenantEscrowAbi, functionName: 'settled' });
    },

    async blockRefAt(height) {
      try {
        return (await client.getBlock({ blockNumber: height })).hash;
      } catch (error) {
        if (error instanceof BlockNotFoundError) return null;
        throw error;
      }
    },

    currentHeight: () => client.getBlockNumber(),
  };
}

/** A stored transaction back in viem's types, refusing what is not hex. */
function hexTransaction(transaction: AnySignedTransaction): SignedTransaction {
  if (!isHex(transaction.rawTransaction) || !isHex(transaction.txRef)) {
    throw new Error(`not an Ethereum transaction: ${transaction.txRef}`);
  }
  return { rawTransaction: transaction.rawTransaction as Hex, txRef: transaction.txRef as Hex };
}

/** The payout's typed data, refusing one built for another chain. */
function payoutTypedDataOf(payout: UnsignedPayout, chainId: number) {
  const typedData = typedDataFromJson(payout.signingPayload);
  if (payout.chain !== 'ETH' || typedData.domain.chainId !== chainId) {
    throw new Error(`payout ${payout.payoutRef} is not for chain ${chainId}`);
  }
  return typedData;
}

/**
 * The first block whose timestamp is at or after `timestamp` (seconds), by bisection over the
 * chain's heights (timestamps never decrease); null when the newest block is older.
 */
async function firstBlockAtOrAfter(client: PublicClient, timestamp: bigint): Promise<bigint | null> {
  let high = await client.getBlockNumber();
  if ((await client.getBlock({ blockNumber: high })).timestamp < timestamp) return null;
  let low = 0n;
  while (low < high) {
    const middle = (low + high) / 2n;
    if ((await client.getBlock({ blockNumber: middle })).timestamp < timestamp) low = middle + 1n;
    else high = middle;
  }
  return low;
}
