import { randomBytes } from 'node:crypto';
import { associatedTokenAccount, type SolanaSigningPayload } from '@covenant/escrow/solana';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64, hex } from '@scure/base';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader } from '../../testing/create-test-trader.js';
import { escrowSteps } from '../../testing/escrow-steps.js';
import { hostileStrings } from '../../testing/hostile-values.js';
import { signSolanaMessage } from '../../testing/solana-test-wallet.js';
import { dealStatus, type EscrowDevnet, startEscrowDevnet } from '../../testing/start-escrow-devnet.js';

// Fuzzing the two bodies Solana added to existing routes, against a live Solana leg on the local
// devnet (the whole server in process): `POST /escrow/release {deal_id, leg, signature | psbt}`
// while the SOL leg's payout awaits the seller's ed25519 signature, and `POST /wallets/connect
// {chain: 'SOL', address}`. Bodies are drawn from what a Solana client sends and near misses of it
// (base58 and hex of every length around 64 bytes, 0x prefixes, Ethereum-shaped signatures, PSBTs,
// both or neither field, other parties, other keys, off-curve addresses, hostile text). Never a
// 5xx, every refusal in the documented error shape, and nothing but the right signature moves the
// payout: after the runs it still awaits the seller, whose real signature is then taken.
// FUZZ_SEED and FUZZ_RUNS as in fuzz-api.test.ts.

const seed = Number(process.env.FUZZ_SEED ?? 20261126);
const runs = Number(process.env.FUZZ_RUNS ?? 60);

let net: EscrowDevnet;
const steps = escrowSteps(() => net);
let dealId: string;
let payload: SolanaSigningPayload;

beforeAll(async () => {
  net = await startEscrowDevnet({ solana: true });
  const opened = await steps.openedEscrow({
    assetChain: 'SOL',
    assetSymbol: 'SOL',
    assetAmount: 1_000_000_001n,
    stableChain: 'SOL',
    stableSymbol: 'USDC',
    stableAmount: 150_000_000n,
  });
  dealId = opened.dealId;
  await net.solana!.pay('SOL', opened.deposit.asset, 1_000_000_001n);
  await net.solana!.pay('USDC', opened.deposit.stable, 150_000_000n);
  await net.settle(async () => (await dealStatus(net.database, dealId)) === 'escrow_funded');
  payload = steps.leg(await steps.view(net.seller, dealId), 'asset')
    .signing_payload as unknown as SolanaSigningPayload;
  expect(payload.format).toBe('solana_message');
}, 240_000);

afterAll(async () => {
  await net?.close();
});

function expectDocumentedError(body: unknown, summary: string) {
  expect(body, summary).toEqual({
    error: {
      code: expect.any(String),
      message: expect.any(String),
      details:
        (body as { error?: { details?: unknown } })?.error?.details === null ? null : expect.any(Object),
      timestamp: expect.any(String),
    },
  });
}

const base58Alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The release bodies to draw from, built once the leg awaits its signature (they name its deal and message). */
function releaseBodies(): fc.Arbitrary<unknown> {
  /** 64 bytes that are no signature of the message: random, or a real one with a bit flipped. */
  const wrongSignatureBytes = fc.oneof(
    fc.uint8Array({ minLength: 64, maxLength: 64 }),
    fc.nat({ max: 511 }).map((bit) => {
      const signature = ed25519.sign(base64.decode(payload.data), net.seller.solana!.privateKey);
      signature[bit >> 3]! ^= 1 << (bit & 7);
      return signature;
    }),
    fc.constant(new Uint8Array(64)),
    fc.constant(new Uint8Array(64).fill(0xff)),
  );

  /** What might come in `signature` on a Solana leg. */
  const signatureText: fc.Arbitrary<string> = fc.oneof(
    // Well-formed but wrong: 64 bytes in base58, hex, 0x hex, upper-case hex.
    wrongSignatureBytes.map((bytes) => base58.encode(bytes)),
    wrongSignatureBytes.map((bytes) => hex.encode(bytes)),
    wrongSignatureBytes.map((bytes) => `0x${hex.encode(bytes)}`),
    wrongSignatureBytes.map((bytes) => hex.encode(bytes).toUpperCase()),
    // The right signature by another key (the buyer's, a stranger's) or of other bytes.
    fc.constant(0).map(() => signSolanaMessage(payload.data, net.buyer.solana!.privateKey)),
    fc.constant(0).map(() => signSolanaMessage(payload.data, new Uint8Array(randomBytes(32)))),
    fc
      .uint8Array({ minLength: 1, maxLength: 300 })
      .map((bytes) => base58.encode(ed25519.sign(bytes, net.seller.solana!.privateKey))),
    // Lengths around 64 bytes, and base58 text that decodes to more or fewer bytes than 64.
    fc.integer({ min: 0, max: 130 }).map((length) => base58.encode(new Uint8Array(randomBytes(length)))),
    fc.integer({ min: 0, max: 140 }).map((length) => hex.encode(new Uint8Array(randomBytes(length)))),
    fc
      .array(fc.constantFrom(...base58Alphabet), { minLength: 60, maxLength: 92 })
      .map((characters) => characters.join('')),
    fc.constantFrom('1'.repeat(64), '1'.repeat(88), 'z'.repeat(88), 'z'.repeat(64), `0x${'11'.repeat(65)}`),
    // Ethereum's 65 bytes on a Solana leg.
    fc.uint8Array({ minLength: 65, maxLength: 65 }).map((bytes) => `0x${hex.encode(bytes)}`),
    fc.constantFrom(...hostileStrings),
  );

  const releaseBody: fc.Arbitrary<unknown> = fc.oneof(
    {
      weight: 8,
      arbitrary: signatureText.map((signature) => ({ deal_id: dealId, leg: 'asset', signature })),
    },
    // The other leg (the buyer's to sign), a PSBT, both fields, neither, extra fields, a stranger deal.
    {
      weight: 1,
      arbitrary: signatureText.map((signature) => ({ deal_id: dealId, leg: 'stable', signature })),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ minLength: 1, maxLength: 400 })
        .map((bytes) => ({ deal_id: dealId, leg: 'asset', psbt: base64.encode(bytes) })),
    },
    {
      weight: 1,
      arbitrary: signatureText.map((signature) => ({
        deal_id: dealId,
        leg: 'asset',
        signature,
        psbt: 'cHNidP8BAA==',
      })),
    },
    { weight: 1, arbitrary: fc.constant({ deal_id: dealId, leg: 'asset' }) },
    {
      weight: 1,
      arbitrary: signatureText.map((signature) => ({
        deal_id: dealId,
        leg: 'asset',
        signature,
        chain: 'SOL',
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.uuid(), signatureText)
        .map(([deal_id, signature]) => ({ deal_id, leg: 'asset', signature })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('buyer', 'seller', 'ASSET', '', null, 0), signatureText)
        .map(([leg, signature]) => ({ deal_id: dealId, leg, signature })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<unknown>(
        null,
        [],
        'signature',
        { deal_id: dealId, leg: 'asset', signature: [payload.data] },
        { deal_id: dealId, leg: 'asset', signature: { base58: 'x' } },
        { deal_id: dealId, leg: 'asset', signature: 64 },
      ),
    },
  );
  return releaseBody;
}

describe('Solana bodies of POST /escrow/release, against a SOL leg awaiting a signature', () => {
  it('never answers 5xx nor takes anything but the seller’s signature of the exact message', async () => {
    /** Answers by status and error code. */
    const answers = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<'buyer' | 'seller'>('seller', 'seller', 'seller', 'buyer'),
        releaseBodies(),
        async (who, body) => {
          const party = who === 'buyer' ? net.buyer : net.seller;
          const response = await net.call('POST', '/api/v1/escrow/release', party.token, body);
          const answer = `${response.statusCode} ${response.json()?.error?.code ?? ''}`;
          answers.set(answer, (answers.get(answer) ?? 0) + 1);
          const summary = `${who}: ${JSON.stringify(body)?.slice(0, 400)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
          expect(response.statusCode, summary).toBeGreaterThanOrEqual(400);
          expect(response.statusCode, summary).toBeLessThan(500);
          expectDocumentedError(response.json(), summary);
        },
      ),
      { seed, numRuns: runs },
    );
    console.info(`solana-bodies-fuzz: escrow/release answers ${JSON.stringify([...answers])}`);
    // Many runs got past validation to the verifier, which refused them (INVALID_SIGNATURE), and
    // some to the form check (a PSBT: APPROVAL_FORM_MISMATCH); the rest were refused before.
    expect(answers.get('400 INVALID_SIGNATURE') ?? 0, JSON.stringify([...answers])).toBeGreaterThan(
      runs / 10,
    );
    expect([...answers.keys()].every((answer) => /^4\d\d /.test(answer))).toBe(true);
    // The runs got past validation to the verifier (400 INVALID_SIGNATURE answers come from it),
    // and were refused by it, not only by the schema.
    const invalidSignature = await net.call('POST', '/api/v1/escrow/release', net.seller.token, {
      deal_id: dealId,
      leg: 'asset',
      signature: '1'.repeat(88),
    });
    expect(invalidSignature.statusCode, invalidSignature.body).toBe(400);
    expect(invalidSignature.json().error.code).toBe('INVALID_SIGNATURE');

    // Nothing moved: the payout still awaits the seller's signature over the same message...
    const leg = steps.leg(await steps.view(net.seller, dealId), 'asset');
    expect(leg.signing_payload).toEqual(payload);
    expect(leg.payout?.approved_by ?? []).toEqual([]);
    // ...and the seller's real signature, in hex, is taken.
    const signature = ed25519.sign(base64.decode(payload.data), net.seller.solana!.privateKey);
    const accepted = await net.call('POST', '/api/v1/escrow/release', net.seller.token, {
      deal_id: dealId,
      leg: 'asset',
      signature: `0x${hex.encode(signature)}`,
    });
    expect(accepted.statusCode, accepted.body).toBe(202);
  }, 300_000);
});

describe('Solana bodies of POST /wallets/connect', () => {
  it('never answers 5xx; registers only well-formed on-curve ed25519 keys', async () => {
    // A session that signs the buyer's Solana key of a funded escrow may not change it (409): a
    // trader with no escrow registers here.
    const trader = net.buyer;
    const offCurve = await associatedTokenAccount(trader.solana!.address, net.solana!.devnet.mints.USDC);
    const freshKey = fc.constant(0).map(() => base58.encode(ed25519.getPublicKey(randomBytes(32))));
    const address: fc.Arbitrary<unknown> = fc.oneof(
      { arbitrary: freshKey, weight: 8 },
      fc.constant(offCurve),
      fc.constant(net.solana!.devnet.mints.USDC),
      fc.integer({ min: 0, max: 64 }).map((length) => base58.encode(new Uint8Array(randomBytes(length)))),
      fc
        .array(fc.constantFrom(...base58Alphabet), { minLength: 30, maxLength: 50 })
        .map((characters) => characters.join('')),
      freshKey.map((key) => `${key}0`),
      freshKey.map((key) => key.toLowerCase()),
      freshKey.map((key) => ` ${key}`),
      fc.constant(0).map(() => hex.encode(ed25519.getPublicKey(randomBytes(32)))),
      fc.constantFrom('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '11111111111111111111111111111111'),
      fc.constantFrom(...hostileStrings),
      fc.constantFrom<unknown>(null, 42, [], {}),
    );
    const body = fc.oneof(
      { weight: 6, arbitrary: address.map((value) => ({ chain: 'SOL', address: value })) },
      { weight: 1, arbitrary: address.map((value) => ({ chain: 'SOL', public_key: value })) },
      { weight: 1, arbitrary: address.map((value) => ({ chain: 'SOL', address: value, public_key: value })) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom('sol', 'SOLANA', '', 'BTC'), address)
          .map(([chain, value]) => ({ chain, address: value })),
      },
    );
    // A trader of its own (created like the parties, with a session fresh enough for a sensitive action).
    const stranger = await createTestTrader(net.app);
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(fc.boolean(), body, async (asParty, request) => {
        const token = asParty ? trader.token : stranger.token;
        const response = await net.call('POST', '/api/v1/wallets/connect', token, request);
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const summary = `${asParty ? 'party' : 'stranger'}: ${JSON.stringify(request).slice(0, 300)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
        expect(response.statusCode, summary).toBeLessThan(500);
        if (response.statusCode >= 400) {
          expectDocumentedError(response.json(), summary);
          return;
        }
        // Taken only when it is an ed25519 point: a key someone can sign with.
        const taken = (request as { address: string }).address;
        expect(response.json().address, summary).toBe(taken);
        expect(() => ed25519.Point.fromBytes(base58.decode(taken)), summary).not.toThrow();
        expect(asParty, `${summary} (the party's key of a funded escrow changed)`).toBe(false);
      }),
      { seed, numRuns: runs },
    );
    console.info(`solana-bodies-fuzz: wallets/connect answers ${JSON.stringify([...statuses])}`);
    // Both answers came: keys taken (201) and refusals (422 for an off-curve address among them).
    expect(statuses.get(201) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
    const refused = await net.call('POST', '/api/v1/wallets/connect', stranger.token, {
      chain: 'SOL',
      address: offCurve,
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error.code).toBe('INVALID_PUBLIC_KEY');
    // The party's key of the funded escrow is still the one in its custody.
    const custody = steps.leg(await steps.view(net.buyer, dealId), 'asset').custody as {
      public_keys: { buyer: string };
    };
    expect(custody.public_keys.buyer).toBe(trader.solana!.address);
  }, 300_000);
});
