import { randomUUID } from 'node:crypto';
import { foreignReturnTypedData, testTokenAbi } from '@covenant/contracts';
import { type Anvil, type Devnet, deployDevnet, devnetPrivateKey, startAnvil } from '@covenant/devnets';
import { type Address, createPublicClient, createTestClient, type Hex, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { LegTerms, PartySignature, UnsignedPayout } from '../chain-adapter.js';
import type { EscrowLeg, LegSigners } from '../types.js';
import { createEthereumEscrowChain } from './create-ethereum-escrow-chain.js';
import type { EthereumEscrowChain, EthereumPlatformSigner } from './ethereum-escrow-chain.js';
import { typedDataFromJson } from './payout-typed-data.js';

/** The relayer: a funded devnet account that is none of the escrow signers. */
export const RELAYER_KEY = devnetPrivateKey(8);

/**
 * A fresh anvil with the factory and tokens deployed, the Ethereum adapter over it (depth policy of
 * 3 blocks) and helpers to make legs, sign payouts and read balances. Signers are devnet accounts
 * 1-3; depositor, receiver and fee addresses are fresh per leg so balances start at 0.
 */
export async function startEthereumFixture() {
  const anvil: Anvil = await startAnvil();
  const devnet: Devnet = await deployDevnet({ rpcUrl: anvil.rpcUrl });
  const transport = http(anvil.rpcUrl, { retryCount: 0 });
  const client = createPublicClient({ chain: foundry, transport, cacheTime: 0, pollingInterval: 50 });
  const testClient = createTestClient({ chain: foundry, mode: 'anvil', transport });
  const signerKeys: Record<keyof LegSigners, Hex> = {
    buyer: anvil.accounts[1]!,
    seller: anvil.accounts[2]!,
    platform: anvil.accounts[3]!,
  };
  const feeAddress = freshAddress();
  const ethereum: EthereumEscrowChain = createEthereumEscrowChain({
    rpcUrl: anvil.rpcUrl,
    chainId: anvil.chainId,
    escrowFactory: devnet.escrowFactory,
    feeAddress,
    tokens: [
      { symbol: 'ETH', address: null },
      ...Object.values(devnet.tokens).map((token) => ({ symbol: token.symbol, address: token.address })),
    ],
    confirmationPolicy: { finality: 'depth', confirmations: 3 },
    relayerKey: RELAYER_KEY,
    platformSigner: testPlatformSigner(signerKeys.platform),
  });

  /** An accepted stable leg of 1,000 USDT unless overridden, refundable a day from now. */
  function legTerms(overrides: Partial<LegTerms> = {}): LegTerms {
    return {
      dealId: randomUUID(),
      leg: 'stable',
      chain: 'ETH',
      symbol: 'USDT',
      tokenAddress: devnet.tokens.USDT.address,
      requiredAmount: 1_000_000_000n,
      depositorRefundAddress: freshAddress(),
      receiverPayoutAddress: freshAddress(),
      deadline: new Date(Date.now() + 3_600_000),
      refundAfter: new Date(Date.now() + 86_400_000),
      signers: {
        buyer: privateKeyToAccount(signerKeys.buyer).address,
        seller: privateKeyToAccount(signerKeys.seller).address,
        platform: privateKeyToAccount(signerKeys.platform).address,
      },
      ...overrides,
    };
  }

  /** Deploys the leg's escrow and returns the leg as the engine keeps it. */
  async function openLeg(terms: LegTerms): Promise<EscrowLeg> {
    const { depositAddress } = await ethereum.deployEscrow(terms);
    const { dealId, ...rest } = terms;
    return { ...rest, escrowId: `escrow-${dealId}`, depositAddress, requiredConfirmations: 3 };
  }

  async function sign(payout: UnsignedPayout, signer: keyof LegSigners): Promise<PartySignature> {
    const typedData = typedDataFromJson(payout.signingPayload);
    return { signer, signature: await privateKeyToAccount(signerKeys[signer]).signTypedData(typedData) };
  }

  async function balanceOf(token: Address | null, owner: string): Promise<bigint> {
    const address = owner as Address;
    if (token === null) return client.getBalance({ address });
    return client.readContract({
      address: token,
      abi: testTokenAbi,
      functionName: 'balanceOf',
      args: [address],
    });
  }

  return {
    anvil,
    devnet,
    client,
    testClient,
    ethereum,
    feeAddress,
    signerKeys,
    legTerms,
    openLeg,
    sign,
    balanceOf,
    stop: () => anvil.stop(),
  };
}

export type EthereumFixture = Awaited<ReturnType<typeof startEthereumFixture>>;

/** The platform's signer over a key, as the server's key-file signer does it. */
export function testPlatformSigner(key: Hex): EthereumPlatformSigner {
  const account = privateKeyToAccount(key);
  return {
    ethereumAddress: account.address,
    signEthereumTypedData: (typedData) => account.signTypedData(typedDataFromJson(typedData)),
    signEthereumForeignReturn: (chainId, escrow, foreignReturn) =>
      account.signTypedData(foreignReturnTypedData(chainId, escrow, foreignReturn)),
  };
}

export function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}
