import { hex } from '@scure/base';
import type { LegOutflowContext, OutgoingMovement } from '../escrow-chain-adapter.js';
import type { BitcoinAddressFormat } from './bitcoin-network.js';
import type { BitcoinRpc } from './bitcoin-rpc.js';
import { addressOutputScript, outputAddress, parseRawTransaction } from './parse-raw-bitcoin.js';
import { readVerboseTransaction } from './read-bitcoin-tx-status.js';

/**
 * What a mined payout moved out of a leg: each output, a `fee` when it pays the fee address, a
 * `refund` when it pays the depositor's refund address, a `payout` otherwise, and the
 * `network_fee` (inputs − outputs, dust folded in included) at the position after the last output.
 * Addresses compare as output scripts, so an address's case does not matter.
 */
export async function readBitcoinOutgoingMovements(
  rpc: BitcoinRpc,
  addressFormat: BitcoinAddressFormat,
  feeAddress: string,
  txid: string,
  leg: LegOutflowContext,
): Promise<{ reverted: boolean; movements: OutgoingMovement[] }> {
  const verbose = await readVerboseTransaction(rpc, txid);
  if (!verbose?.blockhash) throw new Error(`transaction ${txid} is not mined`);
  const header = await rpc<{ height: number }>('getblockheader', [verbose.blockhash, true]);
  const tx = parseRawTransaction(verbose.hex);
  let inputs = 0n;
  for (const input of tx.inputs) {
    const previous = await readVerboseTransaction(rpc, input.txid);
    const output = previous ? parseRawTransaction(previous.hex).outputs[input.vout] : undefined;
    if (!output)
      throw new Error(`the output ${input.txid}:${input.vout} spent by ${txid} is unknown to the node`);
    inputs += output.amount;
  }
  const scriptHex = (address: string) => {
    const script = addressOutputScript(address, addressFormat);
    return script ? hex.encode(script) : null;
  };
  const feeScript = scriptHex(feeAddress);
  const refundScript = scriptHex(leg.depositorRefundAddress);
  const place = { blockRef: verbose.blockhash, height: BigInt(header.height) };
  const movements: OutgoingMovement[] = tx.outputs.map((output, position) => {
    const script = hex.encode(output.script);
    const kind = script === feeScript ? 'fee' : script === refundScript ? 'refund' : 'payout';
    return {
      kind,
      to: outputAddress(output.script, addressFormat) ?? script,
      amount: output.amount,
      position,
      ...place,
    };
  });
  const outputs = tx.outputs.reduce((sum, output) => sum + output.amount, 0n);
  movements.push({
    kind: 'network_fee',
    to: '',
    amount: inputs - outputs,
    position: tx.outputs.length,
    ...place,
  });
  return { reverted: false, movements };
}
