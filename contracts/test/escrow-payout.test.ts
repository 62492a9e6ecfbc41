import { type Address, encodeFunctionData, type Hex, toFunctionSelector } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  covenantEscrowAbi,
  ETH_TOKEN,
  type ForeignReturn,
  foreignArrivalId,
  refundPayout,
  releasePayout,
  splitPayout,
  testBlacklistTokenAbi,
  testReentrancyAttackerAbi,
} from '../src/index.js';
import { type EscrowFixture, freshAddress, revertOf, startEscrowFixture } from './escrow-fixture.js';

describe('CovenantEscrow payouts', () => {
  let fx: EscrowFixture;
  beforeAll(async () => {
    fx = await startEscrowFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  async function balances(
    token: Address,
    addresses: { escrow: Address; depositor: Address; receiver: Address; fee: Address },
  ) {
    return {
      escrow: await fx.balanceOf(token, addresses.escrow),
      depositor: await fx.balanceOf(token, addresses.depositor),
      receiver: await fx.balanceOf(token, addresses.receiver),
      fee: await fx.balanceOf(token, addresses.fee),
    };
  }

  // Each case: the leg's amount, what was deposited, and the expected split written out.
  const releaseCases = [
    {
      // 1 ETH required, 1.5 ETH deposited: fee 10^18 / 10^4 = 10^14 wei; excess 0.5 ETH back.
      kind: 'ETH',
      token: () => ETH_TOKEN,
      amount: 10n ** 18n,
      deposited: 15n * 10n ** 17n,
      receiver: 999_900_000_000_000_000n,
      fee: 100_000_000_000_000n,
      excess: 500_000_000_000_000_000n,
    },
    {
      // 1,234,567.891234 USDC = 1_234_567_891_234 units: fee floor(123_456_789.1234) = 123_456_789.
      kind: 'USDC (6 decimals)',
      token: () => fx.devnet.tokens.USDC.address,
      amount: 1_234_567_891_234n,
      deposited: 1_234_567_891_234n,
      receiver: 1_234_444_434_445n,
      fee: 123_456_789n,
      excess: 0n,
    },
    {
      // USDT whose transfer returns nothing: 250,000 USDT, 1 unit too many deposited.
      // fee 250_000_000_000 / 10_000 = 25_000_000; receiver 249_975_000_000; excess 1.
      kind: 'USDT-like (no return values)',
      token: () => fx.devnet.tokens.USDT.address,
      amount: 250_000_000_000n,
      deposited: 250_000_000_001n,
      receiver: 249_975_000_000n,
      fee: 25_000_000n,
      excess: 1n,
    },
    {
      // 3.999999999999999999 WETH: fee floor(399_999_999_999_999.9999) = 399_999_999_999_999 wei;
      // receiver 3_999_999_999_999_999_999 - 399_999_999_999_999 = 3_999_600_000_000_000_000.
      kind: 'WETH (18 decimals)',
      token: () => fx.devnet.tokens.WETH.address,
      amount: 3_999_999_999_999_999_999n,
      deposited: 3_999_999_999_999_999_999n,
      receiver: 3_999_600_000_000_000_000n,
      fee: 399_999_999_999_999n,
      excess: 0n,
    },
    {
      // 12.5 WBTC = 1_250_000_000 sat: fee 125_000 sat; receiver 1_249_875_000; 2 sat excess.
      kind: 'WBTC (8 decimals)',
      token: () => fx.devnet.tokens.WBTC.address,
      amount: 1_250_000_000n,
      deposited: 1_250_000_002n,
      receiver: 1_249_875_000n,
      fee: 125_000n,
      excess: 2n,
    },
    {
      // 9_999 sat: 1 bp is 0.9999 sat, rounded down to nothing; the receiver gets it all.
      kind: 'WBTC below the smallest fee',
      token: () => fx.devnet.tokens.WBTC.address,
      amount: 9_999n,
      deposited: 9_999n,
      receiver: 9_999n,
      fee: 0n,
      excess: 0n,
    },
  ];

  it.each(releaseCases)(
    'releases $kind: receiver amount − fee, fee recipient the fee, depositor the excess, in one transaction',
    async (c) => {
      const token = c.token();
      const terms = fx.legTerms({ token, amount: c.amount });
      const escrow = await fx.createEscrow(terms);
      await fx.fund(token, escrow, c.deposited);
      const payout = releasePayout(terms);
      const receipt = await fx.executePayout(
        escrow,
        payout,
        await fx.sign(escrow, payout, ['buyer', 'seller']),
      );

      expect(
        await balances(token, {
          escrow,
          depositor: terms.depositor,
          receiver: terms.receiver,
          fee: terms.feeRecipient,
        }),
      ).toEqual({ escrow: 0n, depositor: c.excess, receiver: c.receiver, fee: c.fee });
      expect(c.receiver + c.fee + c.excess).toBe(c.deposited);
      expect(receipt.status).toBe('success');
      expect(
        await fx.publicClient.readContract({
          address: escrow,
          abi: covenantEscrowAbi,
          functionName: 'settled',
        }),
      ).toBe(true);
    },
  );

  it('accepts any two of the three signers, and all three', async () => {
    for (const signers of [
      ['seller', 'platform'],
      ['platform', 'buyer'],
      ['buyer', 'seller', 'platform'],
    ] as const) {
      const terms = fx.legTerms({ amount: 10_000n });
      const escrow = await fx.createEscrow(terms);
      await fx.fund(ETH_TOKEN, escrow, 10_000n);
      const payout = releasePayout(terms);
      await fx.executePayout(escrow, payout, await fx.sign(escrow, payout, [...signers]));
      // 10_000 wei: fee 1 wei, receiver 9_999 wei.
      expect(await fx.balanceOf(ETH_TOKEN, terms.receiver)).toBe(9_999n);
      expect(await fx.balanceOf(ETH_TOKEN, terms.feeRecipient)).toBe(1n);
    }
  });

  it('refuses to release an under-funded leg with the amounts, and releases once it is topped up', async () => {
    const token = fx.devnet.tokens.USDC.address;
    const terms = fx.legTerms({ token, amount: 5_000_000_000n });
    const escrow = await fx.createEscrow(terms);
    await fx.fund(token, escrow, 4_999_999_999n);
    const payout = releasePayout(terms);
    const signatures = await fx.sign(escrow, payout, ['buyer', 'platform']);
    expect(await revertOf(fx.executePayout(escrow, payout, signatures))).toEqual({
      errorName: 'CovenantEscrowInsufficientBalance',
      args: [5_000_000_000n, 4_999_999_999n],
    });

    await fx.fund(token, escrow, 1n);
    await fx.executePayout(escrow, payout, signatures);
    // 5,000 USDC: fee 500_000 units (0.50 USDC), receiver 4_999_500_000.
    expect(await fx.balanceOf(token, terms.receiver)).toBe(4_999_500_000n);
    expect(await fx.balanceOf(token, terms.feeRecipient)).toBe(500_000n);
  });

  it('refunds the whole balance to the depositor with two signatures, without fee', async () => {
    const token = fx.devnet.tokens.WETH.address;
    const terms = fx.legTerms({ token, amount: 2n * 10n ** 18n });
    const escrow = await fx.createEscrow(terms);
    await fx.fund(token, escrow, 123_456_789n);
    const payout = refundPayout();
    await fx.executePayout(escrow, payout, await fx.sign(escrow, payout, ['seller', 'platform']));
    expect(await fx.balanceOf(token, terms.depositor)).toBe(123_456_789n);
    expect(await fx.balanceOf(token, terms.receiver)).toBe(0n);
    expect(await fx.balanceOf(token, terms.feeRecipient)).toBe(0n);
    expect(await fx.balanceOf(token, escrow)).toBe(0n);
  });

  it('splits as signed: each share less its 1 bp fee, the fees together to the fee recipient, the rest back to the depositor', async () => {
    const token = fx.devnet.tokens.USDT.address;
    const terms = fx.legTerms({ token, amount: 100_000_000_000n });
    const escrow = await fx.createEscrow(terms);
    await fx.fund(token, escrow, 100_000_000_123n);
    // Mediator: 60,000 USDT to the receiver, 30,000.5 USDT to a third address, nothing named for the depositor.
    const third = freshAddress();
    const payout = splitPayout([
      { recipient: terms.receiver, amount: 60_000_000_000n },
      { recipient: third, amount: 30_000_500_000n },
    ]);
    await fx.executePayout(escrow, payout, await fx.sign(escrow, payout, ['buyer', 'platform']));
    // Receiver: 60_000_000_000 - 6_000_000 = 59_994_000_000. Third: 30_000_500_000 - 3_000_050 = 29_997_499_950.
    // Fee: 6_000_000 + 3_000_050 = 9_000_050. Depositor: 100_000_000_123 - 90_000_500_000 = 9_999_500_123.
    expect(await fx.balanceOf(token, terms.receiver)).toBe(59_994_000_000n);
    expect(await fx.balanceOf(token, third)).toBe(29_997_499_950n);
    expect(await fx.balanceOf(token, terms.feeRecipient)).toBe(9_000_050n);
    expect(await fx.balanceOf(token, terms.depositor)).toBe(9_999_500_123n);
    expect(await fx.balanceOf(token, escrow)).toBe(0n);
  });

  it('refuses a release payload that differs from the terms, and a split above the balance', async () => {
    const terms = fx.legTerms({ amount: 1_000n });
    const escrow = await fx.createEscrow(terms);
    await fx.fund(ETH_TOKEN, escrow, 1_000n);
    const toSomeoneElse = { ...releasePayout(terms), recipients: [freshAddress()] };
    expect(
      (
        await revertOf(
          fx.executePayout(escrow, toSomeoneElse, await fx.sign(escrow, toSomeoneElse, ['buyer', 'seller'])),
        )
      ).errorName,
    ).toBe('CovenantEscrowInvalidPayout');
    const tooMuch = splitPayout([{ recipient: terms.receiver, amount: 1_001n }]);
    expect(
      await revertOf(fx.executePayout(escrow, tooMuch, await fx.sign(escrow, tooMuch, ['buyer', 'seller']))),
    ).toEqual({
      errorName: 'CovenantEscrowInsufficientBalance',
      args: [1_001n, 1_000n],
    });
  });

  it('is not bricked by a token that blacklists the receiver: the release reverts whole, the refund goes through', async () => {
    const token = await fx.deploy('TestBlacklistToken');
    const terms = fx.legTerms({ token, amount: 1_000_000n });
    const escrow = await fx.createEscrow(terms);
    await fx.fund(token, escrow, 1_000_000n);
    await fx.confirm(
      await fx.walletClient.writeContract({
        address: token,
        abi: testBlacklistTokenAbi,
        functionName: 'setBlacklisted',
        args: [terms.receiver, true],
      }),
    );
    const release = releasePayout(terms);
    const { errorName } = await revertOf(
      fx.executePayout(escrow, release, await fx.sign(escrow, release, ['buyer', 'seller'])),
    );
    expect(errorName).toBe(toFunctionSelector('TestBlacklistTokenBlacklisted(address)'));
    // Nothing moved and nothing was consumed.
    expect(await fx.balanceOf(token, escrow)).toBe(1_000_000n);
    expect(await fx.balanceOf(token, terms.feeRecipient)).toBe(0n);
    expect(
      await fx.publicClient.readContract({ address: escrow, abi: covenantEscrowAbi, functionName: 'nonce' }),
    ).toBe(0n);

    const refund = refundPayout();
    await fx.executePayout(escrow, refund, await fx.sign(escrow, refund, ['seller', 'platform']));
    expect(await fx.balanceOf(token, terms.depositor)).toBe(1_000_000n);
    expect(await fx.balanceOf(token, escrow)).toBe(0n);
  });

  it('stops a receiver that re-enters on receipt of ETH: the re-entry fails and it gets only its share', async () => {
    const attacker = await fx.deploy('TestReentrancyAttacker');
    const terms = fx.legTerms({ amount: 10n ** 18n, receiver: attacker });
    const escrow = await fx.createEscrow(terms);
    await fx.fund(ETH_TOKEN, escrow, 3n * 10n ** 18n);
    const release = releasePayout(terms);
    const signatures = await fx.sign(escrow, release, ['buyer', 'seller']);
    // On receipt the attacker replays the same release, hoping to be paid again before the escrow settles.
    await fx.confirm(
      await fx.walletClient.writeContract({
        address: attacker,
        abi: testReentrancyAttackerAbi,
        functionName: 'arm',
        args: [
          escrow,
          encodeFunctionData({
            abi: covenantEscrowAbi,
            functionName: 'executePayout',
            args: [release.action, release.recipients, release.amounts, release.nonce, signatures],
          }),
        ],
      }),
    );
    await fx.executePayout(escrow, release, signatures);

    const read = <Name extends 'attempted' | 'reentered' | 'reentryError'>(functionName: Name) =>
      fx.publicClient.readContract({ address: attacker, abi: testReentrancyAttackerAbi, functionName });
    expect(await read('attempted')).toBe(true);
    expect(await read('reentered')).toBe(false);
    expect(await read('reentryError')).toBe(toFunctionSelector('ReentrancyGuardReentrantCall()'));
    // 1 ETH: attacker 0.9999 ETH, fee 0.0001 ETH, the 2 ETH excess back to the depositor.
    expect(await fx.balanceOf(ETH_TOKEN, attacker)).toBe(999_900_000_000_000_000n);
    expect(await fx.balanceOf(ETH_TOKEN, terms.feeRecipient)).toBe(100_000_000_000_000n);
    expect(await fx.balanceOf(ETH_TOKEN, terms.depositor)).toBe(2n * 10n ** 18n);
    expect(await fx.balanceOf(ETH_TOKEN, escrow)).toBe(0n);
  });

  it('logs ETH deposits, sweeps late deposits back to the depositor, and returns a wrong token', async () => {
    const terms = fx.legTerms({ amount: 1_000n });
    const escrow = await fx.createEscrow(terms);
    const hash = await fx.walletClient.sendTransaction({ to: escrow, value: 1_000n });
    const receipt = await fx.confirm(hash);
    const logs = await fx.publicClient.getContractEvents({
      address: escrow,
      abi: covenantEscrowAbi,
      eventName: 'Deposited',
      fromBlock: receipt.blockNumber,
      toBlock: receipt.blockNumber,
    });
    expect(logs.map((log) => log.args)).toEqual([{ from: fx.funder.address, amount: 1_000n }]);

    const sweep = () =>
      fx.publicClient.simulateContract({
        account: fx.funder,
        address: escrow,
        abi: covenantEscrowAbi,
        functionName: 'sweep',
      });
    expect((await revertOf(sweep())).errorName).toBe('CovenantEscrowNotSettled');
    const release = releasePayout(terms);
    await fx.executePayout(escrow, release, await fx.sign(escrow, release, ['buyer', 'seller']));
    expect((await revertOf(sweep())).errorName).toBe('CovenantEscrowNothingToTransfer');

    await fx.fund(ETH_TOKEN, escrow, 777n);
    await fx.confirm(
      await fx.walletClient.writeContract({ address: escrow, abi: covenantEscrowAbi, functionName: 'sweep' }),
    );
    expect(await fx.balanceOf(ETH_TOKEN, terms.depositor)).toBe(777n);
  });

  it('returns a wrong token to a party on the platform signature, elsewhere on two signers, once per arrival', async () => {
    const terms = fx.legTerms({ amount: 1_000n });
    const escrow = await fx.createEscrow(terms);
    const wrongToken = fx.devnet.tokens.USDC.address;
    await fx.fund(wrongToken, escrow, 100n);
    const stranger = freshAddress();
    const toReceiver: ForeignReturn = {
      arrival: foreignArrivalId(`0x${'11'.repeat(32)}`, 3),
      asset: wrongToken,
      to: terms.receiver,
      amount: 42n,
    };
    const returnForeign = async (foreignReturn: ForeignReturn, signatures: Hex[]) => {
      const args = [
        foreignReturn.arrival,
        foreignReturn.asset,
        foreignReturn.to,
        foreignReturn.amount,
        signatures,
      ] as const;
      await fx.publicClient.simulateContract({
        account: fx.funder,
        address: escrow,
        abi: covenantEscrowAbi,
        functionName: 'returnForeignAsset',
        args,
      });
      return fx.confirm(
        await fx.walletClient.writeContract({
          address: escrow,
          abi: covenantEscrowAbi,
          functionName: 'returnForeignAsset',
          args,
        }),
      );
    };

    // A party alone cannot take it, nor can nobody.
    const bySeller = await fx.signForeignReturn(escrow, toReceiver, ['seller']);
    expect((await revertOf(returnForeign(toReceiver, bySeller))).errorName).toBe(
      'CovenantEscrowNotEnoughSignatures',
    );
    expect((await revertOf(returnForeign(toReceiver, []))).errorName).toBe(
      'CovenantEscrowNotEnoughSignatures',
    );
    // A signature over another amount recovers to nobody the escrow knows.
    const forMore = await fx.signForeignReturn(escrow, { ...toReceiver, amount: 43n }, ['platform']);
    expect((await revertOf(returnForeign(toReceiver, forMore))).errorName).toBe(
      'CovenantEscrowUnknownSigner',
    );

    // The platform alone sends it to either party's address in the terms, once per arrival.
    const byPlatform = await fx.signForeignReturn(escrow, toReceiver, ['platform']);
    const receipt = await returnForeign(toReceiver, byPlatform);
    expect(await fx.balanceOf(wrongToken, terms.receiver)).toBe(42n);
    const logs = await fx.publicClient.getContractEvents({
      address: escrow,
      abi: covenantEscrowAbi,
      eventName: 'ForeignAssetReturned',
      fromBlock: receipt.blockNumber,
      toBlock: receipt.blockNumber,
    });
    expect(logs.map((log) => log.args)).toEqual([
      { arrival: toReceiver.arrival, asset: wrongToken, to: terms.receiver, amount: 42n },
    ]);
    expect(
      await fx.publicClient.readContract({
        address: escrow,
        abi: covenantEscrowAbi,
        functionName: 'returned',
        args: [toReceiver.arrival],
      }),
    ).toBe(true);
    expect((await revertOf(returnForeign(toReceiver, byPlatform))).errorName).toBe(
      'CovenantEscrowAlreadyReturned',
    );

    // Anyone else: the platform alone is not enough, two of the three are.
    const toStranger: ForeignReturn = {
      ...toReceiver,
      arrival: foreignArrivalId(`0x${'22'.repeat(32)}`, 0),
      to: stranger,
    };
    const strangerByPlatform = await fx.signForeignReturn(escrow, toStranger, ['platform']);
    expect((await revertOf(returnForeign(toStranger, strangerByPlatform))).errorName).toBe(
      'CovenantEscrowNotEnoughSignatures',
    );
    const tooMuch = { ...toStranger, amount: 59n };
    expect(
      (
        await revertOf(
          returnForeign(tooMuch, await fx.signForeignReturn(escrow, tooMuch, ['buyer', 'platform'])),
        )
      ).errorName,
    ).toBe('CovenantEscrowInsufficientBalance');
    await returnForeign(toStranger, await fx.signForeignReturn(escrow, toStranger, ['buyer', 'platform']));
    expect(await fx.balanceOf(wrongToken, stranger)).toBe(42n);

    // The depositor's address needs only the platform too; the leg's own asset never moves this way.
    const toDepositor: ForeignReturn = {
      ...toReceiver,
      arrival: foreignArrivalId(`0x${'33'.repeat(32)}`, 1),
      to: terms.depositor,
      amount: 16n,
    };
    await returnForeign(toDepositor, await fx.signForeignReturn(escrow, toDepositor, ['platform']));
    expect(await fx.balanceOf(wrongToken, terms.depositor)).toBe(16n);
    expect(await fx.balanceOf(wrongToken, escrow)).toBe(0n);
    const ownAsset = {
      ...toDepositor,
      arrival: foreignArrivalId(`0x${'44'.repeat(32)}`, 0),
      asset: ETH_TOKEN,
    };
    expect(
      (
        await revertOf(
          returnForeign(ownAsset, await fx.signForeignReturn(escrow, ownAsset, ['buyer', 'seller'])),
        )
      ).errorName,
    ).toBe('CovenantEscrowNotForeignAsset');
  });

  it('refuses ETH sent to a token escrow', async () => {
    const terms = fx.legTerms({ token: fx.devnet.tokens.USDC.address, amount: 1n });
    const escrow = await fx.createEscrow(terms);
    await expect(fx.walletClient.sendTransaction({ to: escrow, value: 1n })).rejects.toThrow();
    expect(await fx.balanceOf(ETH_TOKEN, escrow)).toBe(0n);
  });
});
