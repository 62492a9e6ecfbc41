import type { Address, Hex, TransactionReceipt } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  covenantEscrowAbi,
  ETH_TOKEN,
  type LegTerms,
  type Payout,
  PayoutAction,
  refundPayout,
  releasePayout,
  splitPayout,
  travelPayout,
} from '../src/index.js';
import {
  type EscrowFixture,
  freshAddress,
  revertOf,
  type Signer,
  startEscrowFixture,
} from './escrow-fixture.js';

// The stable leg of the worked example: 100,000 USDC (6 decimals) = 100_000_000_000 units, its fee
// 1 bp = 10_000_000 (10 USDC). The hotel costs 2,000 USDC = 2_000_000_000 units.
const A = 100_000_000_000n;
const FEE = 10_000_000n;
const T = 2_000_000_000n;

describe('CovenantEscrow travel payouts', () => {
  let fx: EscrowFixture;
  let usdc: Address;
  beforeAll(async () => {
    fx = await startEscrowFixture();
    usdc = fx.devnet.tokens.USDC.address;
  });
  afterAll(async () => {
    await fx.stop();
  });

  async function fundedEscrow(deposited: bigint, overrides: Partial<LegTerms> = {}) {
    const terms = fx.legTerms({ token: usdc, amount: A, leg: 1, ...overrides });
    const escrow = await fx.createEscrow(terms);
    await fx.fund(terms.token, escrow, deposited);
    return { terms, escrow };
  }

  async function pay(escrow: Address, payout: Payout, signers: readonly Signer[] = ['buyer', 'seller']) {
    return fx.executePayout(escrow, payout, await fx.sign(escrow, payout, [...signers]));
  }

  function read<Name extends 'nonce' | 'settled' | 'travelPaid' | 'balance'>(
    escrow: Address,
    functionName: Name,
  ) {
    return fx.publicClient.readContract({ address: escrow, abi: covenantEscrowAbi, functionName });
  }

  async function balances(terms: LegTerms, escrow: Address) {
    return {
      escrow: await fx.balanceOf(terms.token, escrow),
      receiver: await fx.balanceOf(terms.token, terms.receiver),
      fee: await fx.balanceOf(terms.token, terms.feeRecipient),
      depositor: await fx.balanceOf(terms.token, terms.depositor),
    };
  }

  function escrowEvents(escrow: Address, receipt: TransactionReceipt) {
    return fx.publicClient.getContractEvents({
      address: escrow,
      abi: covenantEscrowAbi,
      fromBlock: receipt.blockNumber,
      toBlock: receipt.blockNumber,
    });
  }

  it('pays exactly the travel value to the payee, without fee, and keeps the escrow open', async () => {
    const { terms, escrow } = await fundedEscrow(A);
    const hotel = freshAddress();
    const receipt = await pay(escrow, travelPayout(hotel, T), ['buyer', 'platform']);

    expect(await fx.balanceOf(usdc, hotel)).toBe(T);
    // 100_000_000_000 − 2_000_000_000 = 98_000_000_000 left; nothing to the fee, receiver or depositor.
    expect(await balances(terms, escrow)).toEqual({
      escrow: 98_000_000_000n,
      receiver: 0n,
      fee: 0n,
      depositor: 0n,
    });
    expect(await read(escrow, 'settled')).toBe(false);
    expect(await read(escrow, 'nonce')).toBe(1n);
    expect(await read(escrow, 'travelPaid')).toBe(T);
    const events = (await escrowEvents(escrow, receipt)).map(({ eventName, args }) => ({ eventName, args }));
    expect(events).toEqual([
      { eventName: 'TravelPaid', args: { nonce: 0n, payee: hotel, amount: T } },
      { eventName: 'Paid', args: { to: hotel, amount: T } },
    ]);
  });

  it('pays travel out of an ETH escrow too', async () => {
    // 1 ETH leg, 0.25 ETH of travel: 0.75 ETH stays.
    const { terms, escrow } = await fundedEscrow(10n ** 18n, { token: ETH_TOKEN, amount: 10n ** 18n });
    const agency = freshAddress();
    await pay(escrow, travelPayout(agency, 25n * 10n ** 16n), ['seller', 'platform']);
    expect(await fx.balanceOf(ETH_TOKEN, agency)).toBe(250_000_000_000_000_000n);
    expect(await fx.balanceOf(terms.token, escrow)).toBe(750_000_000_000_000_000n);
    expect(await read(escrow, 'settled')).toBe(false);
  });

  it('refuses a replay of the same travel signatures', async () => {
    const { escrow } = await fundedEscrow(A);
    const hotel = freshAddress();
    const travel = travelPayout(hotel, T);
    const signatures = await fx.sign(escrow, travel, ['buyer', 'seller']);
    await fx.executePayout(escrow, travel, signatures);
    expect(await revertOf(fx.executePayout(escrow, travel, signatures))).toEqual({
      errorName: 'CovenantEscrowInvalidNonce',
      args: [1n, 0n],
    });
    expect(await fx.balanceOf(usdc, hotel)).toBe(T);
    expect(await read(escrow, 'travelPaid')).toBe(T);
  });

  it('runs payouts only in nonce order: nonce 1 is refused at 0, and a release signed at 0 is dead once travel took 0', async () => {
    const { terms, escrow } = await fundedEscrow(A);
    const early = travelPayout(freshAddress(), T, 1n);
    expect(await revertOf(pay(escrow, early))).toEqual({
      errorName: 'CovenantEscrowInvalidNonce',
      args: [0n, 1n],
    });

    const release = releasePayout(terms, 0n);
    const releaseSignatures = await fx.sign(escrow, release, ['buyer', 'seller']);
    await pay(escrow, travelPayout(freshAddress(), T, 0n));
    expect(await revertOf(fx.executePayout(escrow, release, releaseSignatures))).toEqual({
      errorName: 'CovenantEscrowInvalidNonce',
      args: [1n, 0n],
    });
    // The travel payout signed for nonce 1 is now the next one, and runs.
    await pay(escrow, early);
    expect(await read(escrow, 'nonce')).toBe(2n);
    expect(await read(escrow, 'travelPaid')).toBe(2n * T);
  });

  it('refuses travel above what the escrow holds, and malformed travel payloads', async () => {
    const { escrow } = await fundedEscrow(A);
    await pay(escrow, travelPayout(freshAddress(), T));
    // 98_000_000_000 left: one unit more is refused with the amounts.
    expect(await revertOf(pay(escrow, travelPayout(freshAddress(), 98_000_000_001n, 1n)))).toEqual({
      errorName: 'CovenantEscrowInsufficientBalance',
      args: [98_000_000_001n, 98_000_000_000n],
    });
    const malformed: Payout[] = [
      travelPayout(freshAddress(), 0n, 1n),
      travelPayout('0x0000000000000000000000000000000000000000', 1n, 1n),
      travelPayout(escrow, 1n, 1n),
      {
        action: PayoutAction.Travel,
        recipients: [freshAddress(), freshAddress()],
        amounts: [1n, 1n],
        nonce: 1n,
      },
      { action: PayoutAction.Travel, recipients: [freshAddress()], amounts: [1n, 1n], nonce: 1n },
      { action: PayoutAction.Travel, recipients: [], amounts: [], nonce: 1n },
    ];
    for (const payout of malformed) {
      expect((await revertOf(pay(escrow, payout))).errorName).toBe('CovenantEscrowInvalidPayout');
    }
    expect(await read(escrow, 'nonce')).toBe(1n);
    expect(await fx.balanceOf(usdc, escrow)).toBe(98_000_000_000n);
  });

  it('refuses a release charging the receiver more than the travel paid, or more than it receives', async () => {
    const { terms, escrow } = await fundedEscrow(A);
    expect((await revertOf(pay(escrow, releasePayout(terms, 0n, 1n)))).errorName).toBe(
      'CovenantEscrowInvalidPayout',
    );
    await pay(escrow, travelPayout(freshAddress(), T));
    expect((await revertOf(pay(escrow, releasePayout(terms, 1n, T + 1n)))).errorName).toBe(
      'CovenantEscrowInvalidPayout',
    );
    // A third amount is no payload at all.
    const threeAmounts = { ...releasePayout(terms, 1n, T), amounts: [A, T, 0n] };
    expect((await revertOf(pay(escrow, threeAmounts))).errorName).toBe('CovenantEscrowInvalidPayout');
    expect(await read(escrow, 'settled')).toBe(false);
  });

  it('refuses a charge above amount − fee even when that much travel was paid', async () => {
    // 10_000 units, fee 1: the receiver gets at most 9_999, so a charge of 10_000 is refused.
    const { terms, escrow } = await fundedEscrow(20_000n, { amount: 10_000n });
    await pay(escrow, travelPayout(freshAddress(), 10_000n));
    expect((await revertOf(pay(escrow, releasePayout(terms, 1n, 10_000n)))).errorName).toBe(
      'CovenantEscrowInvalidPayout',
    );
    // A charge of exactly amount − fee leaves the receiver 0: 10_000 − 1 − 9_999 = 0; fee 1;
    // depositor 10_000 held − (10_000 − 9_999) = 9_999.
    await pay(escrow, releasePayout(terms, 1n, 9_999n));
    expect(await balances(terms, escrow)).toEqual({ escrow: 0n, receiver: 0n, fee: 1n, depositor: 9_999n });
  });

  const releaseCases = [
    {
      // Seller pays: the buyer deposited D = A; travel T leaves A − T = 98_000_000_000 held.
      // Charge T: receiver A − fee − T = 100_000_000_000 − 10_000_000 − 2_000_000_000 = 97_990_000_000;
      // fee 10_000_000; depositor held − (A − T) = 98_000_000_000 − 98_000_000_000 = 0.
      paidBy: 'seller',
      travel: T,
      deposited: A,
      charge: T,
      receiver: 97_990_000_000n,
      depositor: 0n,
    },
    {
      // Buyer pays: the buyer deposited D = A + T = 102_000_000_000; after travel A is held.
      // Charge 0: receiver A − fee = 99_990_000_000; fee 10_000_000; depositor D − T − A = 0.
      paidBy: 'buyer',
      travel: T,
      deposited: A + T,
      charge: 0n,
      receiver: 99_990_000_000n,
      depositor: 0n,
    },
    {
      // Split with an odd cost T' = 2_000_000_001: the receiver's share is floor(T'/2) = 1_000_000_000,
      // the buyer's the rest, 1_000_000_001, so D = A + 1_000_000_001 = 101_000_000_001, plus 7 units
      // too many = 101_000_000_008. Held after travel: 101_000_000_008 − 2_000_000_001 = 99_000_000_007.
      // Receiver A − fee − 1_000_000_000 = 98_990_000_000; fee 10_000_000;
      // depositor 99_000_000_007 − (A − 1_000_000_000) = 99_000_000_007 − 99_000_000_000 = 7.
      paidBy: 'split',
      travel: 2_000_000_001n,
      deposited: 101_000_000_008n,
      charge: 1_000_000_000n,
      receiver: 98_990_000_000n,
      depositor: 7n,
    },
  ] as const;

  it.each(releaseCases)('releases after travel paid by the $paidBy to the base unit', async (c) => {
    const { terms, escrow } = await fundedEscrow(c.deposited);
    const provider = freshAddress();
    await pay(escrow, travelPayout(provider, c.travel), ['buyer', 'platform']);
    await pay(escrow, releasePayout(terms, 1n, c.charge), ['seller', 'platform']);

    expect(await fx.balanceOf(usdc, provider)).toBe(c.travel);
    expect(await balances(terms, escrow)).toEqual({
      escrow: 0n,
      receiver: c.receiver,
      fee: FEE,
      depositor: c.depositor,
    });
    // deposits = travel + settlement payout + fee + refund, to the unit.
    expect(c.travel + c.receiver + FEE + c.depositor).toBe(c.deposited);
    expect(await read(escrow, 'settled')).toBe(true);
    expect(await read(escrow, 'nonce')).toBe(2n);
  });

  it('refunds what is left after travel to the depositor, and a split pays from what is left', async () => {
    const refunded = await fundedEscrow(A);
    await pay(refunded.escrow, travelPayout(freshAddress(), T));
    await pay(refunded.escrow, refundPayout(1n));
    // 100_000_000_000 − 2_000_000_000 = 98_000_000_000 back, no fee.
    expect(await balances(refunded.terms, refunded.escrow)).toEqual({
      escrow: 0n,
      receiver: 0n,
      fee: 0n,
      depositor: 98_000_000_000n,
    });

    const split = await fundedEscrow(A);
    await pay(split.escrow, travelPayout(freshAddress(), T));
    await pay(split.escrow, splitPayout([{ recipient: split.terms.receiver, amount: 60_000_000_000n }], 1n));
    // Receiver 60_000_000_000 − 6_000_000 = 59_994_000_000; fee 6_000_000;
    // depositor 98_000_000_000 held − 60_000_000_000 = 38_000_000_000.
    expect(await balances(split.terms, split.escrow)).toEqual({
      escrow: 0n,
      receiver: 59_994_000_000n,
      fee: 6_000_000n,
      depositor: 38_000_000_000n,
    });
  });

  it('pays two travel payouts in a row, then releases charging both', async () => {
    const { terms, escrow } = await fundedEscrow(A);
    const hotel = freshAddress();
    const airline = freshAddress();
    await pay(escrow, travelPayout(hotel, 1_500_000_000n, 0n));
    await pay(escrow, travelPayout(airline, 500_000_000n, 1n), ['seller', 'platform']);
    expect(await read(escrow, 'travelPaid')).toBe(2_000_000_000n);
    expect(await read(escrow, 'balance')).toBe(98_000_000_000n);
    await pay(escrow, releasePayout(terms, 2n, 2_000_000_000n));
    // Seller pays both: receiver 100_000_000_000 − 10_000_000 − 2_000_000_000 = 97_990_000_000;
    // depositor 98_000_000_000 − (100_000_000_000 − 2_000_000_000) = 0.
    expect(await fx.balanceOf(usdc, hotel)).toBe(1_500_000_000n);
    expect(await fx.balanceOf(usdc, airline)).toBe(500_000_000n);
    expect(await balances(terms, escrow)).toEqual({
      escrow: 0n,
      receiver: 97_990_000_000n,
      fee: FEE,
      depositor: 0n,
    });
    // Settled: no more travel.
    expect((await revertOf(pay(escrow, travelPayout(hotel, 1n, 3n)))).errorName).toBe(
      'CovenantEscrowAlreadySettled',
    );
  });

  it('refuses travel signed by one party twice, or by one party alone', async () => {
    const { terms, escrow } = await fundedEscrow(A);
    const travel = travelPayout(freshAddress(), T);
    const [buyer] = (await fx.sign(escrow, travel, ['buyer'])) as [Hex];
    expect(await revertOf(fx.executePayout(escrow, travel, [buyer, buyer]))).toEqual({
      errorName: 'CovenantEscrowDuplicateSigner',
      args: [terms.buyer],
    });
    expect(await revertOf(fx.executePayout(escrow, travel, [buyer]))).toEqual({
      errorName: 'CovenantEscrowNotEnoughSignatures',
      args: [1n, 2n],
    });
    expect(await read(escrow, 'nonce')).toBe(0n);
    expect(await read(escrow, 'travelPaid')).toBe(0n);
  });
});
