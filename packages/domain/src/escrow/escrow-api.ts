import { z } from 'zod';
import { validateTransactionHash } from './validate-transaction-hash.js';

/**
 * The wire shapes of the escrow API, shared by the server (request validation, OpenAPI) and the web
 * client. Amounts are decimal strings in the token's base units; times are ISO 8601.
 */

const baseUnits = z.string().regex(/^\d{1,78}$/, 'base units as a decimal string');
// The engine (packages/escrow) takes its legs, leg states and escrow statuses from these lists.
export const escrowLegNames = ['asset', 'stable'] as const;
export const escrowLegStates = [
  'awaiting_deposit',
  'partially_funded',
  'funded',
  'releasing',
  'released',
  'refunding',
  'refunded',
] as const;
export const escrowStatusValues = [
  'awaiting_funding',
  'funded',
  'settling',
  'settled',
  'refunding',
  'refunded',
] as const;
export const escrowPayoutKinds = ['release', 'refund', 'split', 'travel'] as const;
export const escrowPayoutStatuses = [
  'collecting',
  'ready',
  'submitting',
  'submitted',
  'confirmed',
  'superseded',
  'failed',
] as const;

export const escrowCreateRequestSchema = z.object({ deal_id: z.uuid() });

const createdLegSchema = z.object({
  leg: z.enum(escrowLegNames),
  chain: z.string(),
  symbol: z.string(),
  amount: baseUnits,
  deposit_address: z.string(),
  deadline: z.string().describe('The funding deadline: unfunded by then, the deal is cancelled and refunded'),
  custody: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Bitcoin: the witness script and the three public keys the deposit address is derived from'),
});

export const escrowCreateResponseSchema = z.object({
  escrow_id: z.uuid(),
  legs: z.array(createdLegSchema),
});

/**
 * EIP-712 typed data as JSON (uint256 values as decimal strings): what a party signs with
 * `eth_signTypedData_v4` to approve a payout of an Ethereum leg's escrow.
 */
export const typedDataSchema = z.object({
  domain: z.object({
    name: z.string(),
    version: z.string(),
    chainId: z.number().int(),
    verifyingContract: z.string(),
  }),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  primaryType: z.string(),
  message: z.record(z.string(), z.unknown()),
});
export type TypedDataJson = z.infer<typeof typedDataSchema>;

const transferSchema = z.object({
  kind: z.enum(['payout', 'fee', 'refund']),
  to: z.string(),
  amount: baseUnits,
});

export const escrowPayoutViewSchema = z.object({
  kind: z.enum(escrowPayoutKinds),
  source: z
    .enum(['settlement', 'cancellation', 'mediator', 'late_deposit', 'travel'])
    .describe('`late_deposit`: money that reached the leg after it was paid out, returned to the depositor'),
  status: z.enum(escrowPayoutStatuses),
  transfers: z
    .array(transferSchema)
    .describe(
      'What the payout transaction pays: on Bitcoin after the network fee, which comes out of the recipient’s output',
    ),
  network_fee: baseUnits
    .nullable()
    .optional()
    .describe(
      'Bitcoin: what the transaction leaves to the miners (outputs below the dust limit folded in); null on Ethereum, where the relayer pays gas',
    ),
  refund_network_fee: baseUnits
    .nullable()
    .optional()
    .describe(
      'Bitcoin: the part of network_fee paid out of the depositor’s refund, for the deposit outputs beyond those the amount needed; the recipient’s output pays the rest. Null on other chains',
    ),
  approved_by: z.array(z.enum(['buyer', 'seller', 'platform'])),
  transaction_hash: z.string().nullable(),
});

export const escrowStatusLegSchema = z.object({
  leg: z.enum(escrowLegNames),
  chain: z.string(),
  symbol: z.string(),
  amount: baseUnits,
  deposit_address: z.string(),
  depositor: z.enum(['buyer', 'seller']),
  received: baseUnits.describe('Confirmed deposits'),
  pending: baseUnits.describe('Deposits seen but not yet deep enough'),
  confirmations: z.number().int(),
  required_confirmations: z.number().int(),
  state: z.enum(escrowLegStates),
  deadline: z.string(),
  refund_after: z.string().nullable().describe('From then anyone may refund the leg on-chain'),
  payout: escrowPayoutViewSchema.nullable(),
  release_typed_data: typedDataSchema
    .nullable()
    .describe('The payload the caller must sign to approve this leg’s payout, when one awaits the caller'),
  signer_address: z
    .string()
    .nullable()
    .describe('The address release_typed_data must be signed with (Ethereum legs)'),
  signing_payload: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'What the caller must sign to approve the payout awaiting it, in its chain’s format: ' +
        '`{format: "eip712", data: <typed data>}` on Ethereum (post the signature as `signature`), ' +
        '`{format: "psbt", data: <base64 PSBT>, summary}` on Bitcoin (post the signed PSBT as `psbt`)',
    ),
  signing_kind: z
    .enum(escrowPayoutKinds)
    .nullable()
    .optional()
    .describe(
      'The kind of the payout signing_payload approves: after the leg’s own payout, a late deposit’s return is a refund whatever `payout.kind` says',
    ),
  signer: z
    .string()
    .nullable()
    .describe('The key that must sign signing_payload: an Ethereum address, a compressed Bitcoin public key'),
  custody: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'What lets anyone recompute the deposit address from public data (Bitcoin: witness script and the ' +
        'three public keys); null on Ethereum, whose escrow contract is public',
    ),
});

export const escrowStatusSchema = z.object({
  escrow_id: z.uuid(),
  deal_id: z.uuid(),
  status: z.enum(escrowStatusValues),
  legs: z.array(escrowStatusLegSchema),
  settle_by: z
    .string()
    .nullable()
    .describe(
      'A funded escrow whose settlement has not started by then is cancelled and both deposits refunded ' +
        '(an hour before the earliest leg’s refund_after); null when no leg has an on-chain deadline',
    ),
  settlement_transactions: z
    .object({ buyer: z.string().nullable(), seller: z.string().nullable(), fee: z.array(z.string()) })
    .nullable(),
});
export type EscrowStatusView = z.infer<typeof escrowStatusSchema>;
export type EscrowStatusLegView = z.infer<typeof escrowStatusLegSchema>;

export const escrowFundRequestSchema = z
  .object({
    deal_id: z.uuid(),
    transaction_hash: z
      .string()
      .min(1)
      .max(200)
      .describe(
        'Your deposit: its hash on Ethereum (0x and 64 hex digits), its txid on Bitcoin (64 hex digits), ' +
          'its signature on Solana (64 bytes in base58)',
      ),
    chain: z.enum(['BTC', 'ETH', 'SOL']),
    amount: baseUnits,
  })
  // Checked here, before the handler: a malformed hash would otherwise reach the chain's client,
  // which throws on it (a 500 instead of the caller's 400).
  .superRefine((body, context) => {
    const check = validateTransactionHash(body.chain, body.transaction_hash);
    if (!check.ok) context.addIssue({ code: 'custom', message: check.reason, path: ['transaction_hash'] });
  });

/** A party's signature of a payout: EIP-712 (Ethereum, 65 bytes hex) or ed25519 (Solana, 64 bytes base58 or hex). */
export const payoutSignatureSchema = z
  .string()
  .regex(
    /^(0x[0-9a-fA-F]{130}|(0x)?[0-9a-fA-F]{128}|[1-9A-HJ-NP-Za-km-z]{64,88})$/,
    'a 65-byte hex signature (Ethereum) or a 64-byte ed25519 signature in base58 or hex (Solana)',
  );

export const escrowReleaseRequestSchema = z
  .object({
    deal_id: z.uuid().optional().describe('The deal whose escrow it is (with `leg`)'),
    leg: z.enum(escrowLegNames).optional().describe('The leg whose payout you approve (with `deal_id`)'),
    escrow_id: z
      .uuid()
      .optional()
      .describe('The escrow (with `side`): the documented alias of `deal_id` and `leg`'),
    side: z
      .enum(['buyer', 'seller'])
      .optional()
      .describe(
        'With `escrow_id`: your side, meaning your approval of the leg you give (buyer: the stable leg; ' +
          'seller: the asset leg). `FORBIDDEN` when it is not your side',
      ),
    signature: payoutSignatureSchema
      .optional()
      .describe(
        'Ethereum legs: the EIP-712 signature of the payout (65 bytes, 0x hex). Solana legs: your ed25519 ' +
          'signature of the message (64 bytes, base58 or hex)',
      ),
    psbt: z
      .base64()
      .min(1)
      .max(200_000)
      .optional()
      .describe('Bitcoin legs: the payout’s PSBT (base64) with your partial signature'),
  })
  .superRefine((body, context) => {
    const byDeal = body.deal_id !== undefined || body.leg !== undefined;
    const byEscrow = body.escrow_id !== undefined || body.side !== undefined;
    if (byDeal === byEscrow) {
      context.addIssue({
        code: 'custom',
        message: 'Name the payout either by `deal_id` and `leg`, or by `escrow_id` and `side`',
        path: byDeal ? ['escrow_id'] : ['deal_id'],
      });
    } else {
      const [first, second] = byDeal ? (['deal_id', 'leg'] as const) : (['escrow_id', 'side'] as const);
      for (const field of [first, second]) {
        if (body[field] === undefined) {
          context.addIssue({
            code: 'custom',
            message: `\`${first}\` and \`${second}\` go together: \`${field}\` is missing`,
            path: [field],
          });
        }
      }
    }
    if ((body.signature === undefined) === (body.psbt === undefined)) {
      context.addIssue({
        code: 'custom',
        message: 'Send exactly one of `signature` (Ethereum, Solana) and `psbt` (Bitcoin)',
        path: ['signature'],
      });
    }
  });

export const devFundRequestSchema = z.object({
  deal_id: z.uuid(),
  leg: z.enum(escrowLegNames),
  amount: baseUnits.optional(),
});

export const devFundResponseSchema = z.object({
  leg: z.enum(escrowLegNames),
  deposit_address: z.string(),
  amount: baseUnits,
  transaction_hash: z.string(),
});

/**
 * The fewest PBKDF2-HMAC-SHA-256 iterations a new escrow key may use: OWASP's 2023 figure (ASVS 2.4.3
 * asks for at least 310 000). The web app uses exactly this many.
 */
export const minimumEscrowKeyIterations = 600_000;

/** How the browser encrypted the escrow seed: PBKDF2-SHA-256 → AES-256-GCM. */
export const escrowKeyEncryptionSchema = z.object({
  kdf: z.literal('PBKDF2'),
  hash: z.literal('SHA-256'),
  iterations: z
    .number()
    .int()
    .min(
      minimumEscrowKeyIterations,
      `PBKDF2 needs at least ${minimumEscrowKeyIterations} iterations: fewer make the escrow password easy to guess from the ciphertext`,
    )
    .max(10_000_000),
  salt: z.base64().max(64),
  cipher: z.literal('AES-256-GCM'),
  iv: z.base64().max(32),
});

export const escrowKeyRequestSchema = z.object({
  ciphertext: z.base64().max(4096),
  encryption: escrowKeyEncryptionSchema,
  ethereum_address: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
});

/** Keys stored before the 600 000 floor (the API took 100 000) are still shown, so they can be unlocked. */
export const escrowKeyResponseSchema = escrowKeyRequestSchema.extend({
  encryption: escrowKeyEncryptionSchema.extend({ iterations: z.number().int().min(100_000).max(10_000_000) }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type EscrowKeyRecord = z.infer<typeof escrowKeyResponseSchema>;
