import { getAddress, keccak256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  covenantEscrowAbi,
  covenantEscrowFactoryAbi,
  escrowImplementationAddress,
  escrowSalt,
  predictEscrowAddress,
} from '../src/index.js';
import { type EscrowFixture, revertOf, startEscrowFixture } from './escrow-fixture.js';

describe('CovenantEscrowFactory', () => {
  let fx: EscrowFixture;
  beforeAll(async () => {
    fx = await startEscrowFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  it('deploys the escrow at the address computed from the terms and the factory, in TypeScript and on-chain', async () => {
    const terms = fx.legTerms({ token: fx.devnet.tokens.USDC.address, amount: 1_000_000n });
    const predicted = predictEscrowAddress(fx.devnet.escrowFactory, terms);
    expect(escrowImplementationAddress(fx.devnet.escrowFactory)).toBe(fx.devnet.escrowImplementation);
    expect(
      await fx.publicClient.readContract({
        address: fx.devnet.escrowFactory,
        abi: covenantEscrowFactoryAbi,
        functionName: 'predictEscrow',
        args: [terms],
      }),
    ).toBe(predicted);
    expect(
      await fx.publicClient.readContract({
        address: fx.devnet.escrowFactory,
        abi: covenantEscrowFactoryAbi,
        functionName: 'escrowSalt',
        args: [terms],
      }),
    ).toBe(escrowSalt(terms));
    expect(await fx.publicClient.getCode({ address: predicted })).toBeUndefined();

    const deployed = await fx.createEscrow(terms);
    expect(deployed).toBe(predicted);
    // The EIP-1167 runtime code, delegating to the implementation.
    const implementation = fx.devnet.escrowImplementation.slice(2).toLowerCase();
    expect(await fx.publicClient.getCode({ address: deployed })).toBe(
      `0x363d3d373d3d3d363d73${implementation}5af43d82803e903d91602b57fd5bf3`,
    );
    const stored = await fx.publicClient.readContract({
      address: deployed,
      abi: covenantEscrowAbi,
      functionName: 'terms',
    });
    expect({ ...stored, deadline: BigInt(stored.deadline) }).toEqual(terms);
  });

  it('puts every term into the address: changing any one of them moves it', () => {
    const terms = fx.legTerms();
    const base = predictEscrowAddress(fx.devnet.escrowFactory, terms);
    const other = getAddress('0x00000000000000000000000000000000000000aa');
    const variants = [
      { dealId: keccak256('0x01') },
      { leg: 1 as const },
      { token: fx.devnet.tokens.WETH.address },
      { amount: terms.amount + 1n },
      { depositor: other },
      { receiver: other },
      { feeRecipient: other },
      { deadline: terms.deadline + 1n },
      { buyer: other },
      { seller: other },
      { platform: other },
    ];
    const addresses = new Set(
      variants.map((change) => predictEscrowAddress(fx.devnet.escrowFactory, { ...terms, ...change })),
    );
    expect(addresses.size).toBe(variants.length);
    expect(addresses.has(base)).toBe(false);
  });

  it('returns the existing escrow when asked again for the same terms, without reverting or re-initializing', async () => {
    const terms = fx.legTerms();
    const first = await fx.createEscrow(terms);
    const receipt = await fx.confirm(
      await fx.walletClient.writeContract({
        address: fx.devnet.escrowFactory,
        abi: covenantEscrowFactoryAbi,
        functionName: 'createEscrow',
        args: [terms],
      }),
    );
    expect(receipt.logs).toHaveLength(0);
    expect(await fx.createEscrow(terms)).toBe(first);
  });

  it('refuses terms whose signers are not three distinct addresses, or that lack an amount', async () => {
    const terms = fx.legTerms();
    const sameSigners = fx.legTerms({ seller: terms.buyer });
    expect(await revertOf(fx.createEscrow(sameSigners))).toEqual({
      errorName: 'CovenantEscrowInvalidTerms',
      args: ['signers'],
    });
    expect(await revertOf(fx.createEscrow(fx.legTerms({ amount: 0n })))).toEqual({
      errorName: 'CovenantEscrowInvalidTerms',
      args: ['amount'],
    });
  });

  it('lets only the factory initialize an escrow, and only once', async () => {
    const terms = fx.legTerms();
    const escrow = await fx.createEscrow(terms);
    const call = fx.publicClient.simulateContract({
      account: fx.funder,
      address: escrow,
      abi: covenantEscrowAbi,
      functionName: 'initialize',
      args: [fx.legTerms()],
    });
    expect(await revertOf(call)).toEqual({
      errorName: 'CovenantEscrowUnauthorizedInitializer',
      args: [fx.funder.address],
    });
    const implementationCall = fx.publicClient.simulateContract({
      account: fx.devnet.escrowFactory,
      address: fx.devnet.escrowImplementation,
      abi: covenantEscrowAbi,
      functionName: 'initialize',
      args: [terms],
    });
    expect((await revertOf(implementationCall)).errorName).toBe('CovenantEscrowAlreadyInitialized');
  });
});
