import { sha256 } from '@noble/hashes/sha2.js';
import { hex } from '@scure/base';
import { Address, CompactSize, OutScript, RawTx } from '@scure/btc-signer';
import * as P from 'micro-packed';
import {
  BITCOIN_ADDRESS_FORMATS,
  BITCOIN_CORE_REGTEST,
  type BitcoinAddressFormat,
} from './bitcoin-network.js';

/** A transaction as the adapter reads it: its id, what it spends and what it pays. */
export interface ParsedBitcoinTransaction {
  txid: string;
  inputs: { txid: string; vout: number }[];
  outputs: { script: Uint8Array; amount: bigint }[];
}

// A serialized block: the 80-byte header, then its transactions (witness serialization).
const RawBlock = P.struct({ header: P.bytes(80), txs: P.array(CompactSize, RawTx) });

type RawTransaction = P.UnwrapCoder<typeof RawTx>;

function parsedTransaction(tx: RawTransaction): ParsedBitcoinTransaction {
  // The txid hashes the serialization without witnesses, and is shown byte-reversed.
  const stripped = RawTx.encode({ ...tx, segwitFlag: false, witnesses: undefined });
  return {
    txid: hex.encode(sha256(sha256(stripped)).reverse()),
    inputs: tx.inputs.map((input) => ({ txid: hex.encode(input.txid), vout: input.index })),
    outputs: tx.outputs.map((output) => ({ script: output.script, amount: output.amount })),
  };
}

/** The transactions of a block from its raw hex (getblock with verbosity 0, on Bitcoin Core and bcoin). */
export function parseRawBlock(blockHex: string): ParsedBitcoinTransaction[] {
  return RawBlock.decode(hex.decode(blockHex)).txs.map(parsedTransaction);
}

/** A transaction from its raw hex (getrawtransaction). */
export function parseRawTransaction(transactionHex: string): ParsedBitcoinTransaction {
  return parsedTransaction(RawTx.decode(hex.decode(transactionHex)));
}

/** The address an output script pays, null for scripts without one (OP_RETURN, bare multisig, unknown). */
export function outputAddress(script: Uint8Array, addressFormat: BitcoinAddressFormat): string | null {
  try {
    return Address(addressFormat).encode(OutScript.decode(script));
  } catch {
    return null;
  }
}

/** The output script paying `address` on the network, null when the address is not valid there. */
export function addressOutputScript(address: string, addressFormat: BitcoinAddressFormat): Uint8Array | null {
  // Regtest addresses are written two ways (bcoin's `rb1…`, Bitcoin Core's `bcrt1…`): both pay the same scripts.
  const formats =
    addressFormat.bech32 === BITCOIN_ADDRESS_FORMATS.regtest.bech32
      ? [addressFormat, BITCOIN_CORE_REGTEST]
      : [addressFormat];
  for (const format of formats) {
    try {
      return OutScript.encode(Address(format).decode(address));
    } catch {
      // not this network's encoding
    }
  }
  return null;
}
