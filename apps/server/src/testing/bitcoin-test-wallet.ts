import { randomBytes } from 'node:crypto';
import { type BitcoinRegtest, startBitcoinRegtest } from '@covenant/devnets';
import {
  BITCOIN_ADDRESS_FORMATS,
  type BitcoinRpc,
  createBitcoinRpc,
  outputAddress,
} from '@covenant/escrow/bitcoin';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base64, hex } from '@scure/base';
import { p2wpkh, Transaction } from '@scure/btc-signer';
import type { BitcoinChainInfo } from '../chains/chain-registry.js';
import { regtestChainInfo } from '../chains/start-bitcoin-chain.js';

/** A party's Bitcoin side in an escrow test: its escrow key, and fresh addresses it is paid at. */
export interface BitcoinPartyWallet {
  /** The escrow key (32 random bytes); its compressed public key is registered with wallets/connect. */
  privateKey: Uint8Array;
  publicKey: string;
  /** P2WPKH addresses of other random keys, empty at the start. */
  payoutAddress: string;
  refundAddress: string;
}

const regtestFormat = BITCOIN_ADDRESS_FORMATS.regtest;

/** A fresh P2WPKH address on bcoin's regtest (`rb1…`), of a random key nobody keeps. */
export function freshRegtestAddress(): string {
  const publicKey = secp256k1.getPublicKey(randomBytes(32), true);
  return p2wpkh(publicKey, regtestFormat).address as string;
}

export function bitcoinPartyWallet(): BitcoinPartyWallet {
  const privateKey = new Uint8Array(randomBytes(32));
  return {
    privateKey,
    publicKey: hex.encode(secp256k1.getPublicKey(privateKey, true)),
    payoutAddress: freshRegtestAddress(),
    refundAddress: freshRegtestAddress(),
  };
}

/** Signs every input of a PSBT (base64) with one key, as the browser does: the same PSBT with the partial signatures. */
export function signPsbt(psbtBase64: string, privateKey: Uint8Array): string {
  const tx = Transaction.fromPSBT(base64.decode(psbtBase64));
  for (let index = 0; index < tx.inputsLength; index++) tx.signIdx(privateKey, index);
  return base64.encode(tx.toPSBT(0));
}

/** The local regtest node of an escrow test, in memory, with what the tests read from it. */
export interface BitcoinTestNode {
  regtest: BitcoinRegtest;
  /** The chain's registry entry (its fee address is filled in when the app builds its chains). */
  info: BitcoinChainInfo;
  rpc: BitcoinRpc;
  /** Pays `sats` to `address` from the node's dev wallet; the txid, once the mempool holds it. */
  pay(address: string, sats: bigint): Promise<string>;
  mine(blocks: number): Promise<string[]>;
  /** What `address` holds: its unspent outputs, the mempool's included (bcoin's address index). */
  holds(address: string): Promise<bigint>;
  /** The outputs of a transaction (mined or in the mempool), in order. */
  outputsOf(txid: string): Promise<{ address: string | null; amount: bigint }[]>;
  mempool(): Promise<string[]>;
}

interface BcoinCoin {
  value: number;
}

/**
 * Starts bcoin's regtest in memory and its registry entry, with the server's default fee-rate bounds
 * (and, given, a lower cap on the deposit outputs a payout spends).
 */
export async function startBitcoinTestNode(
  confirmations: number,
  options: { maxPayoutInputs?: number } = {},
): Promise<BitcoinTestNode> {
  const regtest = await startBitcoinRegtest();
  const info = regtestChainInfo(regtest, { confirmations, feeRateSatPerVbyte: { min: 2, max: 500 } });
  if (options.maxPayoutInputs !== undefined) info.bitcoin.maxPayoutInputs = options.maxPayoutInputs;
  const rpc = createBitcoinRpc(regtest);
  const authorization = `Basic ${Buffer.from(`${regtest.rpcUser}:${regtest.rpcPassword}`).toString('base64')}`;
  return {
    regtest,
    info,
    rpc,
    pay: (address, sats) => regtest.fund(address, sats),
    mine: (blocks) => regtest.mine(blocks),
    async holds(address) {
      const response = await fetch(`${regtest.rpcUrl}/coin/address/${address}`, {
        headers: { authorization },
      });
      if (!response.ok) throw new Error(`the node's address index answered ${response.status}`);
      const coins = (await response.json()) as BcoinCoin[];
      // bcoin gives `value` in satoshis, as an integer.
      return coins.reduce((sum, coin) => sum + BigInt(coin.value), 0n);
    },
    async outputsOf(txid) {
      const tx = Transaction.fromRaw(hex.decode(await rpc<string>('getrawtransaction', [txid])));
      return Array.from({ length: tx.outputsLength }, (_, index) => {
        const output = tx.getOutput(index);
        return { address: outputAddress(output.script!, regtestFormat), amount: output.amount! };
      });
    },
    mempool: () => rpc<string[]>('getrawmempool'),
  };
}
