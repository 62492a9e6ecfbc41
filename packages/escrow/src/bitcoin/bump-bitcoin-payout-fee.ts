import { estimateVsize, P2WPKH_INPUT_WITNESS_WEIGHT } from '@covenant/domain';
import { base64, hex } from '@scure/base';
import { DEFAULT_SEQUENCE, p2wpkh, Transaction } from '@scure/btc-signer';
import type { UnsignedPayout } from '../chain-adapter.js';
import type { FeeBump, SignedTransaction } from '../escrow-chain-adapter.js';
import type { FeeRateBounds } from './bitcoin-fee-rules.js';
import type { BitcoinAddressFormat } from './bitcoin-network.js';
import { payoutTransaction } from './bitcoin-payout.js';
import { type BitcoinRpc, unknownToNull } from './bitcoin-rpc.js';
import { parseRawTransaction } from './parse-raw-bitcoin.js';
import type { BitcoinFeeWalletKey } from './platform-bitcoin-key.js';

/** An output the fee wallet may hold; the adapter checks with gettxout that it is unspent and confirmed. */
export interface FeeWalletOutpoint {
  txid: string;
  vout: number;
}

export interface FeeBumpContext {
  rpc: BitcoinRpc;
  addressFormat: BitcoinAddressFormat;
  feeAddress: string;
  feeRates: FeeRateBounds;
  /** The node's current estimate, clamped to the bounds. */
  estimatedRate: bigint;
  dustLimit: (outputScript: Uint8Array) => bigint;
  feeWallet: { key: BitcoinFeeWalletKey; outpoints?: () => Promise<readonly FeeWalletOutpoint[]> };
}

interface TxOut {
  confirmations: number;
  scriptPubKey: { hex: string };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/**
 * A child paying for a stuck payout (CPFP), signed by the fee wallet alone. It spends the payout's
 * fee output, plus confirmed outputs of the fee wallet when that is not enough, back to the fee
 * address, with a fee that lifts the package (parent + child) to the target rate:
 * min(ceiling, max(estimate, parent rate) + attempt × floor) sat/vB. The parent's rate is its
 * network fee over its vsize. Throws when the payout has no fee output (folded as dust), when the
 * target is not above the parent's rate (already at the ceiling), or when the fee wallet cannot pay.
 */
export async function bumpBitcoinPayoutFee(
  context: FeeBumpContext,
  payout: UnsignedPayout,
  sent: SignedTransaction,
  attempt: number,
): Promise<FeeBump> {
  const { rpc, addressFormat, feeRates, dustLimit } = context;
  const feePublicKey = hex.decode(await context.feeWallet.key.publicKey());
  const feeScript = p2wpkh(feePublicKey, addressFormat).script;
  const feeWalletAddress = p2wpkh(feePublicKey, addressFormat).address;
  if (feeWalletAddress !== context.feeAddress) {
    throw new Error(
      `the fee wallet's key pays ${feeWalletAddress}, not the fee address ${context.feeAddress}`,
    );
  }
  const built = payoutTransaction(payout);
  const parent = parseRawTransaction(sent.rawTransaction);
  if (parent.txid !== sent.txRef || parent.txid !== built.id) {
    throw new Error(`transaction ${sent.txRef} is not payout ${payout.payoutRef}`);
  }
  const parentTx = await rpc<{ blockhash?: string | null } | null>('getrawtransaction', [
    parent.txid,
    true,
  ]).catch(unknownToNull);
  if (!parentTx)
    throw new Error(
      `payout ${payout.payoutRef} is in neither the node's mempool nor its chain: send it again first`,
    );
  if (parentTx.blockhash)
    throw new Error(`payout ${payout.payoutRef} is already mined: there is nothing to bump`);
  const feeVout = parent.outputs.findIndex((output) => sameBytes(output.script, feeScript));
  if (feeVout < 0) {
    throw new Error(
      `payout ${payout.payoutRef} has no fee output to spend (its fee was below the dust limit and went to the miner): it cannot be bumped by CPFP`,
    );
  }
  let parentFee = 0n;
  for (let index = 0; index < built.inputsLength; index++)
    parentFee += built.getInput(index).witnessUtxo!.amount;
  for (const output of parent.outputs) parentFee -= output.amount;
  const parentVsize = BigInt(Transaction.fromRaw(hex.decode(sent.rawTransaction)).vsize);
  const parentRate = parentFee / parentVsize;
  const wanted =
    (context.estimatedRate > parentRate ? context.estimatedRate : parentRate) +
    BigInt(attempt) * feeRates.floor;
  const targetRate = wanted > feeRates.ceiling ? feeRates.ceiling : wanted;
  if (targetRate <= parentRate) {
    throw new Error(
      `payout ${payout.payoutRef} already pays ${parentRate} sat/vB, the ceiling allows ${feeRates.ceiling}`,
    );
  }

  const coins: { txid: string; vout: number; amount: bigint }[] = [
    { txid: parent.txid, vout: feeVout, amount: parent.outputs[feeVout]!.amount },
  ];
  const extra = [...((await context.feeWallet.outpoints?.()) ?? [])];
  const childFee = () => {
    const vsize = estimateVsize(
      coins.map(() => P2WPKH_INPUT_WITNESS_WEIGHT),
      [feeScript],
    );
    const packageFee = targetRate * (parentVsize + vsize) - parentFee;
    const ownFloor = vsize * feeRates.floor;
    return packageFee > ownFloor ? packageFee : ownFloor;
  };
  const total = () => coins.reduce((sum, coin) => sum + coin.amount, 0n);
  while (total() - childFee() < dustLimit(feeScript)) {
    const next = extra.shift();
    if (!next) {
      throw new Error(
        `the fee wallet cannot pay ${childFee()} sats for a child of payout ${payout.payoutRef}: its fee output holds ${coins[0]!.amount} and no other confirmed output is left`,
      );
    }
    if (coins.some((coin) => coin.txid === next.txid && coin.vout === next.vout)) continue;
    // Unspent and confirmed (not in the mempool), and paying the fee address.
    const out = await rpc<TxOut | null>('gettxout', [next.txid, next.vout, false]);
    if (!out || out.confirmations < 1 || out.scriptPubKey.hex !== hex.encode(feeScript)) continue;
    // The amount from the transaction itself, in satoshis (gettxout's is a float of BTC).
    const raw = await rpc<string>('getrawtransaction', [next.txid]);
    coins.push({ ...next, amount: parseRawTransaction(raw).outputs[next.vout]!.amount });
  }

  const child = new Transaction({ version: 2, lockTime: 0 });
  for (const coin of coins) {
    child.addInput({
      txid: coin.txid,
      index: coin.vout,
      sequence: DEFAULT_SEQUENCE,
      witnessUtxo: { script: feeScript, amount: coin.amount },
    });
  }
  child.addOutput({ script: feeScript, amount: total() - childFee() });
  const signed = Transaction.fromPSBT(
    base64.decode(await context.feeWallet.key.signPsbt(base64.encode(child.toPSBT(0)))),
  );
  signed.finalize();
  return { replaces: false, transaction: { rawTransaction: hex.encode(signed.extract()), txRef: signed.id } };
}
