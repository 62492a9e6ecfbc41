import { type Anvil, type Devnet, deployDevnet, startAnvil } from '@covenant/devnets';
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  keccak256,
  toHex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import {
  contractArtifact,
  covenantEscrowAbi,
  covenantEscrowFactoryAbi,
  ETH_TOKEN,
  type ForeignReturn,
  foreignReturnTypedData,
  type LegTerms,
  type Payout,
  payoutTypedData,
  testTokenAbi,
} from '../src/index.js';

export type Signer = 'buyer' | 'seller' | 'platform';

/**
 * A devnet with the factory and test tokens deployed, clients for it and helpers to create, fund and
 * pay out escrows. Each leg gets fresh depositor, receiver and fee addresses, so their balances
 * start at 0 and are checked absolutely.
 */
export async function startEscrowFixture() {
  const anvil: Anvil = await startAnvil();
  const devnet: Devnet = await deployDevnet({ rpcUrl: anvil.rpcUrl });
  const chain = foundry;
  const transport = http(anvil.rpcUrl, { retryCount: 0, batch: { batchSize: 500 } });
  // anvil mines each transaction at once: poll for receipts often rather than every 4 s.
  const publicClient = createPublicClient({ chain, transport, cacheTime: 0, pollingInterval: 20 });
  const funder = privateKeyToAccount(anvil.accounts[0]!);
  const walletClient = createWalletClient({ account: funder, chain, transport, cacheTime: 0 });
  const signerKeys: Record<Signer, Hex> = {
    buyer: anvil.accounts[1]!,
    seller: anvil.accounts[2]!,
    platform: anvil.accounts[3]!,
  };
  let dealCounter = 0;

  async function confirm(hash: Hex) {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`transaction reverted: ${hash}`);
    return receipt;
  }

  async function deploy(
    name: 'TestToken' | 'TestBlacklistToken' | 'TestReentrancyAttacker',
    args: unknown[] = [],
  ) {
    const { abi, bytecode } = contractArtifact(name);
    const receipt = await confirm(await walletClient.deployContract({ abi: abi as Abi, bytecode, args }));
    return receipt.contractAddress!;
  }

  function legTerms(overrides: Partial<LegTerms> = {}): LegTerms {
    dealCounter += 1;
    return {
      dealId: keccak256(toHex(`deal-${dealCounter}-${Date.now()}`)),
      leg: 0,
      token: ETH_TOKEN,
      amount: 10n ** 18n,
      depositor: freshAddress(),
      receiver: freshAddress(),
      feeRecipient: freshAddress(),
      deadline: BigInt(Math.floor(Date.now() / 1000) + 86_400),
      buyer: privateKeyToAccount(signerKeys.buyer).address,
      seller: privateKeyToAccount(signerKeys.seller).address,
      platform: privateKeyToAccount(signerKeys.platform).address,
      ...overrides,
    };
  }

  async function createEscrow(terms: LegTerms): Promise<Address> {
    const { result } = await publicClient.simulateContract({
      account: funder,
      address: devnet.escrowFactory,
      // The escrow's errors too: its initialize() reverts bubble up through the factory.
      abi: [...covenantEscrowFactoryAbi, ...covenantEscrowAbi.filter((item) => item.type === 'error')],
      functionName: 'createEscrow',
      args: [terms],
    });
    await confirm(
      await walletClient.writeContract({
        address: devnet.escrowFactory,
        abi: covenantEscrowFactoryAbi,
        functionName: 'createEscrow',
        args: [terms],
      }),
    );
    return result;
  }

  /** Sends `amount` of the leg's asset to `to` (ETH from the funder; tokens minted straight to it). */
  async function fund(token: Address, to: Address, amount: bigint) {
    if (token === ETH_TOKEN) {
      await confirm(await walletClient.sendTransaction({ to, value: amount }));
    } else {
      await confirm(
        await walletClient.writeContract({
          address: token,
          abi: testTokenAbi,
          functionName: 'mint',
          args: [to, amount],
        }),
      );
    }
  }

  async function balanceOf(token: Address, owner: Address): Promise<bigint> {
    if (token === ETH_TOKEN) return publicClient.getBalance({ address: owner });
    return publicClient.readContract({
      address: token,
      abi: testTokenAbi,
      functionName: 'balanceOf',
      args: [owner],
    });
  }

  async function sign(
    escrow: Address,
    payout: Payout,
    signers: (Signer | Hex)[],
    chainId: number = chain.id,
  ): Promise<Hex[]> {
    return Promise.all(
      signers.map((signer) => {
        const key = signer.startsWith('0x') ? (signer as Hex) : signerKeys[signer as Signer];
        return privateKeyToAccount(key).signTypedData(payoutTypedData(chainId, escrow, payout));
      }),
    );
  }

  async function signForeignReturn(
    escrow: Address,
    foreignReturn: ForeignReturn,
    signers: Signer[],
  ): Promise<Hex[]> {
    return Promise.all(
      signers.map((signer) =>
        privateKeyToAccount(signerKeys[signer]).signTypedData(
          foreignReturnTypedData(chain.id, escrow, foreignReturn),
        ),
      ),
    );
  }

  async function executePayout(escrow: Address, payout: Payout, signatures: Hex[]) {
    const args = [payout.action, payout.recipients, payout.amounts, payout.nonce, signatures] as const;
    // Simulated first so a revert surfaces with its decoded custom error.
    await publicClient.simulateContract({
      account: funder,
      address: escrow,
      abi: covenantEscrowAbi,
      functionName: 'executePayout',
      args,
    });
    return confirm(
      await walletClient.writeContract({
        address: escrow,
        abi: covenantEscrowAbi,
        functionName: 'executePayout',
        args,
      }),
    );
  }

  return {
    anvil,
    devnet,
    publicClient,
    walletClient,
    funder,
    signerKeys,
    confirm,
    deploy,
    legTerms,
    createEscrow,
    fund,
    balanceOf,
    sign,
    signForeignReturn,
    executePayout,
    stop: () => anvil.stop(),
  };
}

export type EscrowFixture = Awaited<ReturnType<typeof startEscrowFixture>>;

export function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

/**
 * The custom error a contract call reverted with: its name and arguments when the ABI knows it,
 * else its 4-byte selector (e.g. a token's own error bubbling up). Fails if the call did not revert.
 */
export async function revertOf(
  call: Promise<unknown>,
): Promise<{ errorName: string; args: readonly unknown[] }> {
  try {
    await call;
  } catch (error) {
    if (error instanceof BaseError) {
      const reverted = error.walk((cause) => cause instanceof ContractFunctionRevertedError);
      if (reverted instanceof ContractFunctionRevertedError) {
        if (reverted.data) return { errorName: reverted.data.errorName, args: reverted.data.args ?? [] };
        if (reverted.signature) return { errorName: reverted.signature, args: [] };
      }
    }
    throw error;
  }
  throw new Error('the call did not revert');
}
