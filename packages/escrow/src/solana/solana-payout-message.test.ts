import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64, hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import type { UnsignedPayout } from '../chain-adapter.js';
import { planSettlement, planTravelPayout } from '../settlement-plan.js';
import { buildSolanaPayoutMessage, type SolanaPayoutInput } from './build-solana-payout.js';
import { SOLANA_NATIVE_MINT } from './solana-leg-accounts.js';
import { decodeLegacyMessage, decodeSignature, payoutMessage } from './solana-payout.js';
import { verifySolanaApproval } from './verify-solana-approval.js';

function keypair() {
  const privateKey = randomBytes(32);
  return { privateKey, address: base58.encode(ed25519.getPublicKey(privateKey)) };
}

const USDC = { mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6 };
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

/** A leg's payout message with random keys and a made-up nonce value. */
async function messageFor(token: SolanaPayoutInput['token']) {
  const [relayer, party, platform, multisig, tokenAccount, nonce, receiver, depositor, fee] = Array.from(
    { length: 9 },
    keypair,
  );
  const leg = {
    escrowId: 'escrow-1',
    leg: 'stable' as const,
    chain: 'SOL' as const,
    requiredAmount: 25_000_000n,
    receiverPayoutAddress: receiver!.address,
    depositorRefundAddress: depositor!.address,
  };
  // Release of 25 USDC with 0.5 over: fee 25,000,000 / 10,000 = 2,500; payout 24,997,500; refund 500,000.
  const plan = planSettlement(leg, 25_500_000n, { kind: 'release' }, fee!.address);
  const input: SolanaPayoutInput = {
    plan,
    tokenAccount: tokenAccount!.address,
    multisig: multisig!.address,
    token,
    nonceAccount: nonce!.address,
    nonceValue: base58.encode(randomBytes(32)),
    relayer: relayer!.address,
    party: party!.address,
    platform: platform!.address,
  };
  const built = await buildSolanaPayoutMessage(input);
  const payout: UnsignedPayout = {
    chain: 'SOL',
    escrowId: leg.escrowId,
    leg: leg.leg,
    payoutRef: 'ref',
    signingPayload: built.signingPayload,
  };
  return { ...built, input, payout, keys: { relayer: relayer!, party: party!, platform: platform! } };
}

describe('the Solana payout message', () => {
  it('pays travel out of a token leg and leaves its account open (no CloseAccount)', async () => {
    const { input } = await messageFor(USDC);
    const payee = keypair().address;
    const travel = planTravelPayout(input.plan, payee, 1_000_000n);
    const { messageBytes, signingPayload } = await buildSolanaPayoutMessage({ ...input, plan: travel });
    const compiled = decodeLegacyMessage(messageBytes);
    const tokenProgram = compiled.staticAccounts.findIndex((key) => String(key) === TOKEN_PROGRAM);
    // Token instructions: TransferChecked (12) only; no CloseAccount (9).
    const tokenInstructions = compiled.instructions
      .filter((instruction) => instruction.programAddressIndex === tokenProgram)
      .map((instruction) => instruction.data?.[0]);
    expect(tokenInstructions).toEqual([12]);
    expect(signingPayload.summary.transfers).toEqual([{ kind: 'travel', to: payee, amount: '1000000' }]);
  });

  it('refuses travel out of a SOL leg, which is never a stable leg', async () => {
    const { input } = await messageFor(null);
    const travel = planTravelPayout(input.plan, keypair().address, 1_000_000n);
    await expect(buildSolanaPayoutMessage({ ...input, plan: travel })).rejects.toThrow(
      'travel is paid from token legs only',
    );
  });

  it('pays a token leg: advance the nonce, create the ATAs, one TransferChecked per transfer, close to the relayer', async () => {
    const { messageBytes, signingPayload, input } = await messageFor(USDC);
    const compiled = decodeLegacyMessage(messageBytes);
    const accounts = compiled.staticAccounts.map(String);
    expect(compiled.version).toBe('legacy');
    expect(compiled.lifetimeToken).toBe(input.nonceValue);
    // Three signers: the relayer pays the fee (first), the party and the platform sign for the multisig.
    expect(compiled.header.numSignerAccounts).toBe(3);
    expect(accounts[0]).toBe(input.relayer);
    expect(new Set(accounts.slice(1, 3))).toEqual(new Set([input.party, input.platform]));
    const programs = compiled.instructions.map((instruction) => accounts[instruction.programAddressIndex]);
    // Advance, 3 ATAs (receiver, fee, depositor), 3 transfers, close.
    expect(programs).toEqual([
      SYSTEM_PROGRAM,
      ATA_PROGRAM,
      ATA_PROGRAM,
      ATA_PROGRAM,
      TOKEN_PROGRAM,
      TOKEN_PROGRAM,
      TOKEN_PROGRAM,
      TOKEN_PROGRAM,
    ]);
    const data = compiled.instructions.map((instruction) => instruction.data ?? new Uint8Array());
    expect(data[0]![0]).toBe(4); // AdvanceNonceAccount (u32 4)
    expect(data.slice(4, 7).map((bytes) => bytes[0])).toEqual([12, 12, 12]); // TransferChecked
    expect(data[7]![0]).toBe(9); // CloseAccount
    // TransferChecked data: 12, amount (u64 LE), decimals.
    const amountOf = (bytes: { buffer: ArrayBufferLike; byteOffset: number }) =>
      new DataView(bytes.buffer, bytes.byteOffset + 1, 8).getBigUint64(0, true);
    expect(data.slice(4, 7).map(amountOf)).toEqual([24_997_500n, 2_500n, 500_000n]);
    expect(data.slice(4, 7).map((bytes) => bytes[9])).toEqual([6, 6, 6]);
    expect(signingPayload.summary).toEqual({
      transfers: [
        { kind: 'payout', to: input.plan.transfers[0]!.to, amount: '24997500' },
        { kind: 'fee', to: input.plan.transfers[1]!.to, amount: '2500' },
        { kind: 'refund', to: input.plan.transfers[2]!.to, amount: '500000' },
      ],
      mint: USDC.mint,
      network_fee: '0',
    });
    expect(signingPayload.signer).toBe(input.party);
    expect(base64.decode(signingPayload.data)).toEqual(messageBytes);
    // Deterministic: the same inputs build the same bytes.
    expect((await buildSolanaPayoutMessage(input)).messageBytes).toEqual(messageBytes);
  });

  it('pays a SOL leg: advance the nonce, close the wSOL account to the relayer, then one system transfer per transfer', async () => {
    const { messageBytes, signingPayload } = await messageFor(null);
    const compiled = decodeLegacyMessage(messageBytes);
    const accounts = compiled.staticAccounts.map(String);
    const programs = compiled.instructions.map((instruction) => accounts[instruction.programAddressIndex]);
    expect(programs).toEqual([SYSTEM_PROGRAM, TOKEN_PROGRAM, SYSTEM_PROGRAM, SYSTEM_PROGRAM, SYSTEM_PROGRAM]);
    expect(compiled.instructions.slice(2).map((instruction) => instruction.data![0])).toEqual([2, 2, 2]);
    expect(signingPayload.summary.mint).toBeNull();
    expect(SOLANA_NATIVE_MINT).toBe('So11111111111111111111111111111111111111112');
  });
});

describe('checking an approval', () => {
  it('accepts the expected signer over exactly the message, in base58 or hex (0x optional), normalized to base58', async () => {
    const { payout, messageBytes, keys } = await messageFor(USDC);
    const signature = ed25519.sign(messageBytes, keys.party.privateKey);
    const expected = { valid: true, signature: base58.encode(signature) };
    expect(verifySolanaApproval(payout, base58.encode(signature), keys.party.address)).toEqual(expected);
    expect(verifySolanaApproval(payout, hex.encode(signature), keys.party.address)).toEqual(expected);
    expect(
      verifySolanaApproval(payout, `0x${hex.encode(signature).toUpperCase()}`, keys.party.address),
    ).toEqual(expected);
    expect(payoutMessage(payout).signers[0]).toBe(keys.relayer.address);
  });

  it('refuses another signer, a tampered message, a broken signature and what is not a signature', async () => {
    const { payout, messageBytes, keys } = await messageFor(USDC);
    // The platform's signature posted as the party's: the message names both, so who signed is told.
    const byPlatform = ed25519.sign(messageBytes, keys.platform.privateKey);
    expect(verifySolanaApproval(payout, base58.encode(byPlatform), keys.party.address)).toEqual({
      valid: false,
      signer: keys.platform.address,
      reason: `signed by ${keys.platform.address}, not ${keys.party.address}`,
    });
    // A key the message does not name at all.
    const stranger = keypair();
    expect(
      verifySolanaApproval(
        payout,
        base58.encode(ed25519.sign(messageBytes, stranger.privateKey)),
        stranger.address,
      ),
    ).toMatchObject({
      valid: false,
      signer: null,
      reason: expect.stringMatching(/is not a signer of this payout's message/),
    });
    // The party signed a message with one byte changed (say, a larger amount).
    const tampered = Uint8Array.from(messageBytes);
    tampered[tampered.length - 3] = tampered[tampered.length - 3]! ^ 1;
    expect(
      verifySolanaApproval(
        payout,
        base58.encode(ed25519.sign(tampered, keys.party.privateKey)),
        keys.party.address,
      ),
    ).toEqual({
      valid: false,
      signer: null,
      reason: `not ${keys.party.address}'s signature of this payout's message (another key or another message)`,
    });
    const broken = ed25519.sign(messageBytes, keys.party.privateKey);
    broken[5] = broken[5]! ^ 1;
    expect(verifySolanaApproval(payout, hex.encode(broken), keys.party.address)).toMatchObject({
      valid: false,
    });
    for (const junk of [
      '',
      'not a signature',
      hex.encode(new Uint8Array(32)),
      base58.encode(new Uint8Array(63)),
    ]) {
      expect(verifySolanaApproval(payout, junk, keys.party.address)).toEqual({
        valid: false,
        signer: null,
        reason: 'not an ed25519 signature (64 bytes in base58 or hex)',
      });
    }
    expect(decodeSignature(` ${base58.encode(broken)} `)).toEqual(broken);
  });
});
