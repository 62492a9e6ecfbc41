import { covenantEscrowFactoryAbi } from '@covenant/contracts';
import { DEVNET_WALLET_ACCOUNT_INDEX, devnetPrivateKey, fundFromDevnetWallet } from '@covenant/devnets';
import { type Address, getAddress, type Hex, isAddressEqual, parseEventLogs } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DepositAddressIndex, WatchedLeg } from '../chain-adapter.js';
import { contractLegTerms } from './contract-leg-terms.js';
import { createEthereumEscrowChain } from './create-ethereum-escrow-chain.js';
import {
  type EthereumFixture,
  freshAddress,
  RELAYER_KEY,
  startEthereumFixture,
  testPlatformSigner,
} from './ethereum-test-fixture.js';

const wallet = privateKeyToAccount(devnetPrivateKey(DEVNET_WALLET_ACCOUNT_INDEX)).address;

/** An index over fixed legs that records every question, to count the scan's lookups. */
function recordingIndex(watched: WatchedLeg[]) {
  const calls: string[][] = [];
  const index: DepositAddressIndex = {
    async match(addresses) {
      calls.push([...addresses]);
      return new Map(
        watched
          .filter((leg) => addresses.includes(leg.depositAddress))
          .map((leg) => [leg.depositAddress, leg]),
      );
    },
  };
  return { index, calls };
}

describe('Ethereum adapter: escrow addresses, deposits and confirmations', () => {
  let fx: EthereumFixture;
  beforeAll(async () => {
    fx = await startEthereumFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  const fund = (token: Address | null, to: string, amount: bigint) =>
    fundFromDevnetWallet({ rpcUrl: fx.anvil.rpcUrl, token, to: to as Address, amount });

  it("derives the factory's predicted address (EIP-55), deploys the escrow there once and not again", async () => {
    const terms = fx.legTerms();
    const depositAddress = await fx.ethereum.depositAddress(terms);
    const predicted = await fx.client.readContract({
      address: fx.devnet.escrowFactory,
      abi: covenantEscrowFactoryAbi,
      functionName: 'predictEscrow',
      args: [contractLegTerms(terms, fx.feeAddress)],
    });
    expect(depositAddress).toBe(predicted);
    expect(depositAddress).toBe(getAddress(depositAddress.toLowerCase()));
    expect(await fx.client.getCode({ address: predicted })).toBeUndefined();
    expect(
      await fx.ethereum.isSettled({ depositAddress, depositorRefundAddress: '', receiverPayoutAddress: '' }),
    ).toBe(false);

    const deployed = await fx.ethereum.deployEscrow(terms);
    expect(deployed.depositAddress).toBe(depositAddress);
    const receipt = await fx.client.getTransactionReceipt({ hash: deployed.txRef as Hex });
    expect(receipt.from).toBe(fx.ethereum.relayerAddress.toLowerCase());
    const created = parseEventLogs({
      abi: covenantEscrowFactoryAbi,
      eventName: 'EscrowCreated',
      logs: receipt.logs,
    });
    expect(created.map((log) => log.args.escrow)).toEqual([depositAddress]);
    expect(
      await fx.ethereum.isSettled({ depositAddress, depositorRefundAddress: '', receiverPayoutAddress: '' }),
    ).toBe(false);

    const relayerNonce = await fx.client.getTransactionCount({ address: fx.ethereum.relayerAddress });
    expect(await fx.ethereum.deployEscrow(terms)).toEqual({ depositAddress, txRef: null });
    expect(await fx.client.getTransactionCount({ address: fx.ethereum.relayerAddress })).toBe(relayerNonce);
  });

  it('finds USDT, ETH and wrong-token deposits to watched escrows, asking the index once per chunk', async () => {
    const usdtLeg = await fx.openLeg(fx.legTerms());
    const ethLeg = await fx.openLeg(
      fx.legTerms({ leg: 'asset', symbol: 'ETH', tokenAddress: null, requiredAmount: 2n * 10n ** 18n }),
    );
    // Two more open escrows that receive nothing: they must not cost the scan anything.
    const idle = [
      await fx.openLeg(fx.legTerms()),
      await fx.openLeg(fx.legTerms({ tokenAddress: null, symbol: 'ETH' })),
    ];
    const watched: WatchedLeg[] = [usdtLeg, ethLeg, ...idle].map((leg) => ({
      escrowId: leg.escrowId,
      leg: leg.leg,
      depositAddress: leg.depositAddress,
      tokenAddress: leg.tokenAddress,
    }));
    const fromHeight = (await fx.ethereum.currentHeight()) + 1n;
    const usdt = fx.devnet.tokens.USDT.address;
    const weth = fx.devnet.tokens.WETH.address;
    const usdtDeposit = await fund(usdt, usdtLeg.depositAddress, 999_999_999n);
    const ethDeposit = await fund(null, ethLeg.depositAddress, 2n * 10n ** 18n);
    const wrongToken = await fund(weth, usdtLeg.depositAddress, 7n);
    const stranger = freshAddress();
    await fund(usdt, stranger, 5_000_000n);
    const toHeight = await fx.ethereum.currentHeight();

    const { index, calls } = recordingIndex(watched);
    const result = await fx.ethereum.scanDeposits({ fromHeight, toHeight }, index);

    expect(result.scannedTo).toBe(toHeight);
    expect(calls).toHaveLength(1);
    // Every recipient in the range is asked about in that one call, the stranger and the wallet (mints) too.
    expect(new Set(calls[0])).toEqual(
      new Set([usdtLeg.depositAddress, ethLeg.depositAddress, stranger, wallet]),
    );
    const expected = async (
      hash: Hex,
      watchedLeg: WatchedLeg,
      tokenAddress: Address | null,
      amount: bigint,
    ) => {
      const receipt = await fx.client.getTransactionReceipt({ hash });
      const log = receipt.logs.find((entry) =>
        isAddressEqual(entry.address, tokenAddress ?? (watchedLeg.depositAddress as Address)),
      );
      return {
        watched: watchedLeg,
        tokenAddress,
        amount,
        txRef: hash,
        position: log?.logIndex,
        blockRef: receipt.blockHash,
        height: receipt.blockNumber,
        from: wallet,
      };
    };
    expect(result.movements).toEqual(
      expect.arrayContaining([
        await expected(usdtDeposit, watched[0]!, usdt, 999_999_999n),
        await expected(ethDeposit, watched[1]!, null, 2n * 10n ** 18n),
        await expected(wrongToken, watched[0]!, weth, 7n),
      ]),
    );
    expect(result.movements).toHaveLength(3);

    // Split into one-block chunks, the same range gives the same movements, one lookup per chunk at most.
    const chunked = createEthereumEscrowChain({
      rpcUrl: fx.anvil.rpcUrl,
      chainId: fx.anvil.chainId,
      escrowFactory: fx.devnet.escrowFactory,
      feeAddress: fx.feeAddress,
      tokens: Object.values(fx.devnet.tokens).map((token) => ({
        symbol: token.symbol,
        address: token.address,
      })),
      confirmationPolicy: fx.ethereum.confirmationPolicy,
      relayerKey: RELAYER_KEY,
      platformSigner: testPlatformSigner(fx.signerKeys.platform),
      maxBlocksPerScan: 1,
    });
    const chunkedIndex = recordingIndex(watched);
    const chunkedResult = await chunked.scanDeposits({ fromHeight, toHeight }, chunkedIndex.index);
    expect(chunkedResult.movements).toEqual(result.movements);
    expect(chunkedIndex.calls.length).toBeGreaterThan(1);
    expect(BigInt(chunkedIndex.calls.length)).toBeLessThanOrEqual(toHeight - fromHeight + 1n);
  });

  it('counts confirmations as blocks are mined, from the mempool to final at the policy depth', async () => {
    expect(await fx.ethereum.confirmations(`0x${'ab'.repeat(32)}`)).toEqual({ state: 'unknown' });

    await fx.testClient.setAutomine(false);
    let hash: Hex;
    try {
      hash = await fx.client.sendRawTransaction({
        serializedTransaction: await privateKeyToAccount(devnetPrivateKey(7)).signTransaction({
          chainId: fx.anvil.chainId,
          type: 'eip1559',
          to: freshAddress(),
          value: 1n,
          gas: 21_000n,
          nonce: await fx.client.getTransactionCount({
            address: privateKeyToAccount(devnetPrivateKey(7)).address,
            blockTag: 'pending',
          }),
          maxFeePerGas: 10n ** 11n,
          maxPriorityFeePerGas: 10n ** 9n,
        }),
      });
      expect(await fx.ethereum.confirmations(hash)).toEqual({ state: 'mempool' });
      await fx.testClient.mine({ blocks: 1 });
    } finally {
      await fx.testClient.setAutomine(true);
    }
    const height = await fx.ethereum.currentHeight();
    const blockRef = await fx.ethereum.blockRefAt(height);
    expect(await fx.ethereum.confirmations(hash)).toEqual({
      state: 'included',
      blockRef,
      height,
      confirmations: 1,
      final: false,
    });
    await fx.testClient.mine({ blocks: 1 });
    expect(await fx.ethereum.confirmations(hash)).toMatchObject({ confirmations: 2, final: false });
    await fx.testClient.mine({ blocks: 1 });
    expect(await fx.ethereum.confirmations(hash)).toEqual({
      state: 'included',
      blockRef,
      height,
      confirmations: 3,
      final: true,
    });
    expect(await fx.ethereum.blockRefAt(height + 1000n)).toBeNull();
  });

  it("notices a reorg: the block at the deposit's height changes and the dropped deposit is no longer found", async () => {
    const leg = await fx.openLeg(fx.legTerms());
    const snapshot = await fx.testClient.snapshot();
    const deposit = await fund(fx.devnet.tokens.USDT.address, leg.depositAddress, 1_000_000_000n);
    const status = await fx.ethereum.confirmations(deposit);
    if (status.state !== 'included') throw new Error(`deposit not included: ${status.state}`);
    expect(await fx.ethereum.blockRefAt(status.height)).toBe(status.blockRef);

    await fx.testClient.revert({ id: snapshot });
    await fx.testClient.increaseTime({ seconds: 13 });
    await fx.testClient.mine({ blocks: 3 });

    const replaced = await fx.ethereum.blockRefAt(status.height);
    expect(replaced).not.toBeNull();
    expect(replaced).not.toBe(status.blockRef);
    expect(await fx.ethereum.confirmations(deposit)).toEqual({ state: 'unknown' });
    const watched = {
      escrowId: leg.escrowId,
      leg: leg.leg,
      depositAddress: leg.depositAddress,
      tokenAddress: leg.tokenAddress,
    };
    const { index } = recordingIndex([watched]);
    const rescan = await fx.ethereum.scanDeposits(
      { fromHeight: status.height, toHeight: status.height + 2n },
      index,
    );
    expect(rescan.movements).toEqual([]);
  });
  it("under a finalized policy, counts a transaction final once the node's finalized block reaches it", async () => {
    const finalizing = createEthereumEscrowChain({
      rpcUrl: fx.anvil.rpcUrl,
      chainId: fx.anvil.chainId,
      escrowFactory: fx.devnet.escrowFactory,
      feeAddress: fx.feeAddress,
      tokens: [],
      confirmationPolicy: { finality: 'finalized', confirmations: 2 },
      relayerKey: RELAYER_KEY,
      platformSigner: testPlatformSigner(fx.signerKeys.platform),
    });
    const hash = await fund(null, freshAddress(), 1n);
    expect(await finalizing.confirmations(hash)).toMatchObject({
      state: 'included',
      confirmations: 1,
      final: false,
    });
    // anvil finalizes 64 blocks below its tip.
    await fx.testClient.mine({ blocks: 63 });
    const { number: finalized } = await fx.client.getBlock({ blockTag: 'finalized' });
    const status = await finalizing.confirmations(hash);
    if (status.state !== 'included') throw new Error(status.state);
    expect(finalized).toBe(status.height - 1n);
    expect(status).toMatchObject({ confirmations: 64, final: false });
    await fx.testClient.mine({ blocks: 1 });
    expect(await finalizing.confirmations(hash)).toMatchObject({ confirmations: 65, final: true });
  });
});
