import { covenantEscrowAbi, covenantEscrowFactoryAbi, testTokenAbi } from '@covenant/contracts';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVNET_FEE_ADDRESS, deployDevnet } from './deploy-devnet.js';
import { type Anvil, startAnvil } from './start-anvil.js';

describe('deployDevnet', () => {
  let anvil: Anvil;
  beforeAll(async () => {
    anvil = await startAnvil();
  });
  afterAll(async () => {
    await anvil.stop();
  });

  it('deploys the escrow factory with its implementation and the four test tokens with their real decimals', async () => {
    const devnet = await deployDevnet({ rpcUrl: anvil.rpcUrl });
    const client = createPublicClient({ transport: http(anvil.rpcUrl, { retryCount: 0 }), cacheTime: 0 });

    expect(devnet.feeAddress).toBe(DEVNET_FEE_ADDRESS);
    expect(await client.getBalance({ address: devnet.feeAddress })).toBe(0n);
    expect(
      await client.readContract({
        address: devnet.escrowFactory,
        abi: covenantEscrowFactoryAbi,
        functionName: 'implementation',
      }),
    ).toBe(devnet.escrowImplementation);
    expect(
      await client.readContract({
        address: devnet.escrowImplementation,
        abi: covenantEscrowAbi,
        functionName: 'factory',
      }),
    ).toBe(devnet.escrowFactory);

    const decimals: Record<string, number> = {};
    for (const token of Object.values(devnet.tokens)) {
      const [symbol, tokenDecimals] = await Promise.all([
        client.readContract({ address: token.address, abi: testTokenAbi, functionName: 'symbol' }),
        client.readContract({ address: token.address, abi: testTokenAbi, functionName: 'decimals' }),
      ]);
      expect(symbol).toBe(token.symbol);
      expect(tokenDecimals).toBe(token.decimals);
      decimals[symbol] = tokenDecimals;
    }
    expect(decimals).toEqual({ USDC: 6, USDT: 6, WETH: 18, WBTC: 8 });
  });

  it('gives the same addresses on every fresh devnet', async () => {
    const other = await startAnvil();
    try {
      const first = await deployDevnet({ rpcUrl: other.rpcUrl });
      const again = await startAnvil();
      try {
        expect(await deployDevnet({ rpcUrl: again.rpcUrl })).toEqual(first);
      } finally {
        await again.stop();
      }
    } finally {
      await other.stop();
    }
  });
});
