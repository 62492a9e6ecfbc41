import { type APIRequestContext, expect } from '@playwright/test';
import { hex } from '@scure/base';
import { Address, getAddress, OutScript, Transaction, utils } from '@scure/btc-signer';

/**
 * bcoin's regtest (the server's local Bitcoin node): bech32 prefix `rb`, not Bitcoin Core's `bcrt`
 * (see packages/devnets' BCOIN_REGTEST_NETWORK).
 */
export const bcoinRegtest = { bech32: 'rb', pubKeyHash: 0x3c, scriptHash: 0x26, wif: 0x5a } as const;

/** What the tests read of the server's local Bitcoin node (`GET /api/v1/chains`'s BTC entry). */
export interface BitcoinDevnet {
  feeAddress: string;
  confirmations: number;
  /** Calls the node's JSON-RPC (Bitcoin Core's dialect) with the credentials its URL carries. */
  rpc<T>(method: string, params?: unknown[]): Promise<T>;
}

type ChainsResponse = {
  data: {
    chain: string;
    network?: string;
    fee_address: string;
    confirmations: number | string;
    rpc_url?: string;
  }[];
};

/** The regtest node the test server started, read from its public chain list. */
export async function bitcoinDevnet(request: APIRequestContext): Promise<BitcoinDevnet> {
  const response = await request.get('/api/v1/chains');
  expect(response.status()).toBe(200);
  const bitcoin = ((await response.json()) as ChainsResponse).data.find((chain) => chain.chain === 'BTC');
  if (!bitcoin?.rpc_url) throw new Error('the test server runs no Bitcoin devnet');
  expect(bitcoin.network).toBe('regtest');
  // fetch refuses a URL with credentials: they go in the Authorization header instead.
  const url = new URL(bitcoin.rpc_url);
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  url.username = '';
  url.password = '';
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const reply = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ jsonrpc: '1.0', id: 1, method, params }),
    });
    const body = (await reply.json()) as { result: T; error: { message: string } | null };
    if (body.error) throw new Error(`bitcoin ${method}: ${body.error.message}`);
    return body.result;
  };
  return { feeAddress: bitcoin.fee_address, confirmations: Number(bitcoin.confirmations), rpc };
}

/** A fresh regtest P2WPKH address (`rb1q…`) of a random key: whatever it holds later came from the test. */
export function randomRegtestAddress(): string {
  const address = getAddress('wpkh', utils.randomPrivateKeyBytes(), bcoinRegtest);
  if (!address) throw new Error('no P2WPKH address for a random key');
  return address;
}

/** A transaction as the node holds it (from its transaction index), decoded with exact amounts. */
export async function regtestTransaction(devnet: BitcoinDevnet, txid: string): Promise<Transaction> {
  const raw = await devnet.rpc<string>('getrawtransaction', [txid, false]);
  return Transaction.fromRaw(hex.decode(raw), { allowUnknownOutputs: true });
}

/** What `transaction` pays to `address`, in satoshis (0n when it pays it nothing). */
export function paidTo(transaction: Transaction, address: string): bigint {
  const script = hex.encode(OutScript.encode(Address(bcoinRegtest).decode(address)));
  let total = 0n;
  for (let index = 0; index < transaction.outputsLength; index++) {
    const output = transaction.getOutput(index);
    if (output.script && hex.encode(output.script) === script) total += output.amount ?? 0n;
  }
  return total;
}

/** Everything `transaction` pays out, in satoshis. */
export function totalOutputs(transaction: Transaction): bigint {
  let total = 0n;
  for (let index = 0; index < transaction.outputsLength; index++) {
    total += transaction.getOutput(index).amount ?? 0n;
  }
  return total;
}
