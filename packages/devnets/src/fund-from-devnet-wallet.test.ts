import { covenantEscrowAbi, covenantEscrowFactoryAbi, ETH_TOKEN, testTokenAbi } from '@covenant/contracts';
import {
  createPublicClient,
  createWalletClient,
  getAddress,
  http,
  type PublicClient,
  parseEventLogs,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, deployDevnet } from './deploy-devnet.js';
import { DEVNET_WALLET_ACCOUNT_INDEX, fundFromDevnetWallet } from './fund-from-devnet-wallet.js';
import { type Anvil, devnetPrivateKey, startAnvil } from './start-anvil.js';

describe('fundFromDevnetWallet', () => {
  let anvil: Anvil;
  let devnet: Devnet;
  let client: PublicClient;
  const wallet = privateKeyToAccount(devnetPrivateKey(DEVNET_WALLET_ACCOUNT_INDEX)).address;
  beforeAll(async () => {
    anvil = await startAnvil();
    devnet = await deployDevnet({ rpcUrl: anvil.rpcUrl });
    client = createPublicClient({
      transport: http(anvil.rpcUrl, { retryCount: 0 }),
      cacheTime: 0,
      pollingInterval: 50,
    });
  });
  afterAll(async () => {
    await anvil.stop();
  });

  const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

  it.each(['USDC', 'USDT', 'WETH', 'WBTC'] as const)(
    'pays %s with one Transfer log from the devnet wallet to the recipient',
    async (symbol) => {
      const token = devnet.tokens[symbol].address;
      const to = freshAddress();
      const hash = await fundFromDevnetWallet({ rpcUrl: anvil.rpcUrl, token, to, amount: 1_234_567n });

      const receipt = await client.getTransactionReceipt({ hash });
      const transfers = parseEventLogs({ abi: testTokenAbi, eventName: 'Transfer', logs: receipt.logs });
      expect(transfers.map((log) => ({ token: log.address, ...log.args }))).toEqual([
        { token: token.toLowerCase(), from: wallet, to, value: 1_234_567n },
      ]);
      expect(
        await client.readContract({
          address: token,
          abi: testTokenAbi,
          functionName: 'balanceOf',
          args: [to],
        }),
      ).toBe(1_234_567n);
      expect(
        await client.readContract({
          address: token,
          abi: testTokenAbi,
          functionName: 'balanceOf',
          args: [wallet],
        }),
      ).toBe(0n);
    },
  );

  it('pays ETH to an escrow, whose receive() logs the deposit, from the key given', async () => {
    const terms = {
      dealId: `0x${'11'.repeat(32)}` as const,
      leg: 0 as const,
      token: ETH_TOKEN,
      amount: 10n ** 18n,
      depositor: freshAddress(),
      receiver: freshAddress(),
      feeRecipient: devnet.feeAddress,
      deadline: 4_000_000_000n,
      buyer: freshAddress(),
      seller: freshAddress(),
      platform: freshAddress(),
    };
    const deployer = createWalletClient({
      account: privateKeyToAccount(devnetPrivateKey(0)),
      chain: foundry,
      transport: http(anvil.rpcUrl, { retryCount: 0 }),
    });
    await client.waitForTransactionReceipt({
      hash: await deployer.writeContract({
        address: devnet.escrowFactory,
        abi: covenantEscrowFactoryAbi,
        functionName: 'createEscrow',
        args: [terms],
      }),
    });
    const escrow = await client.readContract({
      address: devnet.escrowFactory,
      abi: covenantEscrowFactoryAbi,
      functionName: 'predictEscrow',
      args: [terms],
    });
    const fromKey = devnetPrivateKey(7);
    const hash = await fundFromDevnetWallet({
      rpcUrl: anvil.rpcUrl,
      token: null,
      to: escrow,
      amount: 3n * 10n ** 17n,
      fromKey,
    });

    const receipt = await client.getTransactionReceipt({ hash });
    const deposits = parseEventLogs({ abi: covenantEscrowAbi, eventName: 'Deposited', logs: receipt.logs });
    expect(deposits.map((log) => ({ escrow: getAddress(log.address), ...log.args }))).toEqual([
      { escrow, from: privateKeyToAccount(fromKey).address, amount: 3n * 10n ** 17n },
    ]);
    expect(await client.getBalance({ address: escrow })).toBe(3n * 10n ** 17n);
  });

  it('pays deposits asked for at once from one wallet, each in full (no two get the same nonce)', async () => {
    const token = devnet.tokens.USDT.address;
    const recipients = [freshAddress(), freshAddress(), freshAddress(), freshAddress()];
    const hashes = await Promise.all(
      recipients.map((to, index) =>
        fundFromDevnetWallet({ rpcUrl: anvil.rpcUrl, token, to, amount: 1_000n + BigInt(index) }),
      ),
    );

    expect(new Set(hashes).size).toBe(4);
    const balances = await Promise.all(
      recipients.map((to) =>
        client.readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [to] }),
      ),
    );
    expect(balances).toEqual([1_000n, 1_001n, 1_002n, 1_003n]);
  });
});
