import { schema } from '@covenant/db';
import type { BitcoinSigningPayload } from '@covenant/escrow/bitcoin';
import { hex } from '@scure/base';
import { p2ms, p2wsh } from '@scure/btc-signer';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escrowSteps } from '../testing/escrow-steps.js';
import { dealStatus, type EscrowDevnet, startEscrowDevnet } from '../testing/start-escrow-devnet.js';

// Bitcoin escrow through the whole server against a real bcoin regtest node (deposits count at 2
// blocks; payouts at the 2 sat/vB floor, bcoin having no fee estimate on regtest), next to the
// Ethereum devnet for the USDT leg. One node per file; the parties are reused, so amounts at shared
// addresses (the fee address above all) are compared as differences.
let net: EscrowDevnet;
const steps = escrowSteps(() => net);
const { view, leg, approve, approvePsbt, openedEscrow } = steps;

beforeAll(async () => {
  net = await startEscrowDevnet({ bitcoin: true });
});

afterAll(async () => {
  await net?.close();
});

const btc = () => net.bitcoin!;
const regtestFormat = { bech32: 'rb', pubKeyHash: 0x3c, scriptHash: 0x26, wif: 0x5a };

/** A BTC asset leg (the seller deposits) against a USDT stable leg on Ethereum (the buyer deposits). */
function btcForUsdt(assetAmount: bigint, stableAmount: bigint, fundingDeadlineHours?: number) {
  return {
    assetSymbol: 'BTC',
    assetChain: 'BTC' as const,
    assetAmount,
    stableSymbol: 'USDT',
    stableAmount,
    ...(fundingDeadlineHours === undefined ? {} : { fundingDeadlineHours }),
  };
}

/**
 * Every base unit of the deal's legs accounted: per leg, the confirmed deposits equal the confirmed
 * payouts + fees + refunds + sweeps + network fees, and no staff alert was raised.
 */
async function expectBooksBalance(dealId: string) {
  const [escrow] = await net.database.db
    .select()
    .from(schema.escrows)
    .where(eq(schema.escrows.dealId, dealId));
  const entries = await net.database.db
    .select()
    .from(schema.escrowLedgerEntries)
    .where(eq(schema.escrowLedgerEntries.escrowId, escrow!.id));
  for (const name of ['asset', 'stable'] as const) {
    const sum = (kinds: string[]) =>
      entries
        .filter((entry) => entry.leg === name && entry.status === 'confirmed' && kinds.includes(entry.kind))
        .reduce((total, entry) => total + BigInt(entry.amount), 0n);
    expect(sum(['deposit']), `${name} leg`).toBe(sum(['payout', 'fee', 'refund', 'sweep', 'network_fee']));
  }
  expect(await net.database.db.select().from(schema.staffAlerts)).toEqual([]);
  return entries;
}

describe('a BTC-for-USDT deal settles through the API on the regtest node', () => {
  // Asset leg 1.23456789 BTC = 123_456_789 sats, deposited by the seller to the leg's P2WSH address.
  //   fee = floor(123_456_789 / 10_000) = 12_345 sats to the BTC fee address
  //   buyer receives 123_456_789 − 12_345 − network fee (read from the PSBT's summary)
  // Stable leg 42,000.000001 USDT = 42_000_000_001 base units, deposited by the buyer on Ethereum.
  //   fee = floor(42_000_000_001 / 10_000) = 4_200_000; seller receives 41_995_800_001.
  const assetAmount = 123_456_789n;
  const stableAmount = 42_000_000_001n;

  it('pays the buyer amount − fee − network fee on Bitcoin and the fee address exactly the fee', async () => {
    const { dealId, deposit } = await openedEscrow(btcForUsdt(assetAmount, stableAmount));
    const feeAddress = btc().info.feeAddress;
    expect(feeAddress).toMatch(/^rb1q/);
    const feeBefore = await btc().holds(feeAddress);

    // The custody shown recomputes the deposit address: 2-of-3 over the sorted keys, as P2WSH.
    const opened = leg(await view(net.seller, dealId), 'asset');
    const custody = opened.custody as {
      witness_script: string;
      public_keys: { buyer: string; seller: string; platform: string };
    };
    expect(custody.public_keys.buyer).toBe(net.buyer.bitcoin!.publicKey);
    expect(custody.public_keys.seller).toBe(net.seller.bitcoin!.publicKey);
    expect(custody.public_keys.platform).toMatch(/^0[23][0-9a-f]{64}$/);
    const sortedKeys = Object.values(custody.public_keys)
      .sort()
      .map((key) => hex.decode(key));
    const script = p2ms(2, sortedKeys);
    expect(custody.witness_script).toBe(hex.encode(script.script));
    expect(p2wsh(script, regtestFormat).address).toBe(deposit.asset);
    expect(deposit.asset).toMatch(/^rb1q/);

    await btc().pay(deposit.asset, assetAmount);
    await net.pay(net.buyer, 'USDT', deposit.stable, stableAmount);
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');

    const signed: BitcoinSigningPayload = await approvePsbt(net.seller, dealId, 'asset');
    // The buyer is not asked to sign the asset leg; the seller signs nothing on the stable leg.
    expect(leg(await view(net.buyer, dealId), 'asset').signing_payload).toBeNull();
    const networkFee = BigInt(signed.summary.network_fee);
    expect(networkFee).toBeGreaterThan(0n);
    expect(signed.summary.fee_rate_sat_vb).toBe('2');
    expect(signed.summary.dust_folded).toEqual([]);
    expect(signed.summary.outputs).toEqual([
      {
        kind: 'payout',
        to: net.buyer.bitcoin!.payoutAddress,
        amount: (assetAmount - 12_345n - networkFee).toString(),
      },
      { kind: 'fee', to: feeAddress, amount: '12345' },
    ]);
    await approve(net.buyer, dealId, 'stable');
    await net.settle(async () => (await dealStatus(net.database, dealId)) === 'completed');

    expect(await btc().holds(net.buyer.bitcoin!.payoutAddress)).toBe(assetAmount - 12_345n - networkFee);
    expect((await btc().holds(feeAddress)) - feeBefore).toBe(12_345n);
    expect(await btc().holds(deposit.asset)).toBe(0n);
    expect(await net.balance('USDT', net.seller.payoutAddress)).toBe(41_995_800_001n);
    const done = await view(net.buyer, dealId);
    expect(done.status).toBe('settled');
    const payoutTx = leg(done, 'asset').payout!.transaction_hash!;
    expect(done.settlement_transactions?.buyer).toBe(payoutTx);
    expect(await btc().outputsOf(payoutTx)).toEqual([
      { address: net.buyer.bitcoin!.payoutAddress, amount: assetAmount - 12_345n - networkFee },
      { address: feeAddress, amount: 12_345n },
    ]);
    const entries = await expectBooksBalance(dealId);
    expect(
      entries
        .filter((entry) => entry.leg === 'asset' && entry.kind !== 'deposit')
        .map((entry) => [entry.kind, entry.amount])
        .sort(),
    ).toEqual(
      [
        ['fee', '12345'],
        ['network_fee', networkFee.toString()],
        ['payout', (assetAmount - 12_345n - networkFee).toString()],
      ].sort(),
    );
  });
});
