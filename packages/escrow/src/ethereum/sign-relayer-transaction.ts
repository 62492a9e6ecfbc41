import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  type Hex,
  keccak256,
  type PrivateKeyAccount,
  type PublicClient,
  parseTransaction,
} from 'viem';
import type { SignedTransaction } from './ethereum-escrow-chain.js';
import { gasLimitOf } from './gas-limit.js';

/** One contract call the relayer pays gas for. */
export interface RelayerCall {
  address: Address;
  /** The called contract's ABI, with every error its call may bubble up, to name a revert. */
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
}

/**
 * Signs the relayer's transaction for a call without sending it, so the caller can store it first
 * and re-send the very same transaction after a crash. Gas is estimated against the node (which
 * throws, naming the contract's error, when the call would revert) and the limit is that estimate
 * plus the gas buffer (`gasLimitOf`); the nonce counts the relayer's pending transactions, and fees
 * come from the node: EIP-1559 where the chain has a base fee, a legacy gas price otherwise. The relayer's transactions must be signed one at a time, or two would
 * take the same nonce.
 */
export async function signRelayerTransaction(
  client: PublicClient,
  relayer: PrivateKeyAccount,
  chainId: number,
  call: RelayerCall,
): Promise<SignedTransaction> {
  const data = encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args });
  let gas: bigint;
  try {
    gas = await client.estimateContractGas({
      account: relayer.address,
      address: call.address,
      abi: call.abi,
      functionName: call.functionName,
      args: call.args,
    });
  } catch (error) {
    throw new Error(`${call.functionName} on ${call.address} would revert: ${revertName(error)}`, {
      cause: error,
    });
  }
  const [nonce, fees] = await Promise.all([
    client.getTransactionCount({ address: relayer.address, blockTag: 'pending' }),
    nodeFees(client),
  ]);
  const common = { chainId, to: call.address, data, gas: gasLimitOf(gas), nonce };
  const rawTransaction: Hex =
    fees.type === 'eip1559'
      ? await relayer.signTransaction({
          ...common,
          type: 'eip1559',
          maxFeePerGas: fees.maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        })
      : await relayer.signTransaction({ ...common, type: 'legacy', gasPrice: fees.gasPrice });
  return { rawTransaction, txRef: keccak256(rawTransaction) };
}

/**
 * Nodes accept a replacement for a pending transaction (same nonce) only when it raises every fee
 * field by at least 10% (geth's default price bump); 12.5% clears that with room for rounding.
 */
const FEE_BUMP_PERCENT = 125n;

/**
 * The relayer's transaction signed again with the same nonce, call and gas, paying more: each fee
 * field is raised by 12.5% (rounded up), or to what the node asks now when that is more. Sent, it
 * replaces the first in the mempool; whichever of the two is mined, the other cannot be.
 */
export async function bumpRelayerTransaction(
  client: PublicClient,
  relayer: PrivateKeyAccount,
  transaction: SignedTransaction,
): Promise<SignedTransaction> {
  const sent = parseTransaction(transaction.rawTransaction);
  if (sent.nonce === undefined || sent.gas === undefined || sent.chainId === undefined || !sent.to) {
    throw new Error(`not a relayer transaction: ${transaction.txRef}`);
  }
  const common = { chainId: sent.chainId, to: sent.to, data: sent.data, gas: sent.gas, nonce: sent.nonce };
  const now = await nodeFees(client);
  const raised = (paid: bigint, asked: bigint) => {
    const bumped = (paid * FEE_BUMP_PERCENT + 99n) / 100n;
    return asked > bumped ? asked : bumped;
  };
  let rawTransaction: Hex;
  if (sent.type === 'eip1559') {
    const paid = { max: sent.maxFeePerGas ?? 0n, priority: sent.maxPriorityFeePerGas ?? 0n };
    const asked =
      now.type === 'eip1559' ? now : { maxFeePerGas: now.gasPrice, maxPriorityFeePerGas: now.gasPrice };
    const maxPriorityFeePerGas = raised(paid.priority, asked.maxPriorityFeePerGas);
    const maxFeePerGas = raised(paid.max, asked.maxFeePerGas);
    rawTransaction = await relayer.signTransaction({
      ...common,
      type: 'eip1559',
      maxPriorityFeePerGas,
      // The cap must cover the tip.
      maxFeePerGas: maxFeePerGas > maxPriorityFeePerGas ? maxFeePerGas : maxPriorityFeePerGas,
    });
  } else if (sent.type === 'legacy') {
    const asked = now.type === 'legacy' ? now.gasPrice : now.maxFeePerGas;
    rawTransaction = await relayer.signTransaction({
      ...common,
      type: 'legacy',
      gasPrice: raised(sent.gasPrice ?? 0n, asked),
    });
  } else {
    throw new Error(`cannot raise the fee of a ${sent.type} transaction: ${transaction.txRef}`);
  }
  return { rawTransaction, txRef: keccak256(rawTransaction) };
}

type NodeFees =
  | { type: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  | { type: 'legacy'; gasPrice: bigint };

async function nodeFees(client: PublicClient): Promise<NodeFees> {
  try {
    const { maxFeePerGas, maxPriorityFeePerGas } = await client.estimateFeesPerGas({
      chain: client.chain,
      type: 'eip1559',
    });
    return { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas };
  } catch {
    // A chain without a base fee (pre-London, some private networks).
    return { type: 'legacy', gasPrice: await client.getGasPrice() };
  }
}

/** The decoded custom error of a reverted call (`Name(arg, …)`), else the node's own message. */
function revertName(error: unknown): string {
  if (!(error instanceof BaseError)) return String(error);
  const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
  if (reverted instanceof ContractFunctionRevertedError) {
    if (reverted.data) {
      const args = (reverted.data.args ?? []).map((arg) => String(arg)).join(', ');
      return `${reverted.data.errorName}(${args})`;
    }
    if (reverted.reason) return reverted.reason;
    if (reverted.signature) return `unknown error ${reverted.signature}`;
  }
  return error.shortMessage;
}
