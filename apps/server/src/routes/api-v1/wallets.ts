import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { connectWallet } from '../../wallets/connect-wallet.js';
import { listWalletBalances } from '../../wallets/list-wallet-balances.js';
import { readWalletSigner } from '../../wallets/read-wallet-signer.js';
import { apiErrorSchema } from './error-schema.js';
import { principalOf } from './principal-of.js';

const chain = z.enum(['BTC', 'ETH', 'SOL']);
const baseUnits = z.string().regex(/^\d{1,78}$/, 'base units as a decimal string');

const connectedSchema = z.object({
  chain,
  address: z
    .string()
    .describe(
      "The chain's signer: on Ethereum the address in its EIP-55 checksummed form, on Bitcoin the " +
        'compressed public key in lower-case hex',
    ),
  connected_at: z.string().describe('When this signer became yours on the chain'),
});

const walletBalancesSchema = z.object({
  chain,
  address: z.string(),
  balances: z
    .array(z.object({ symbol: z.string(), decimals: z.number().int(), amount: baseUnits }))
    .nullable()
    .describe('Null when the platform has no node for the chain or its node did not answer in time'),
  held_in_escrow: z
    .array(z.object({ symbol: z.string(), amount: baseUnits }))
    .describe(
      'What you deposited into escrows that still hold it (fully funded legs, being released or refunded); ' +
        'empty while you have none',
    ),
});

/** `POST /wallets/connect` and `GET /wallets/balance`: the addresses a user signs escrows with. */
export const walletRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;

  routes.post(
    '/wallets/connect',
    {
      config: { access: 'sensitive' },
      schema: {
        tags: ['Wallets'],
        summary:
          'Register what you sign escrow transactions with on a chain (one per chain): an address on ' +
          'Ethereum, a compressed public key on Bitcoin; it cannot change while an escrow you sign for is open',
        body: z.object({
          chain,
          address: z
            .string()
            .min(1)
            .max(200)
            .optional()
            .describe(
              'Your signing address, on every chain but Bitcoin (on Solana: your ed25519 public key in base58)',
            ),
          public_key: z
            .string()
            .min(1)
            .max(200)
            .optional()
            .describe(
              'Bitcoin only: your compressed secp256k1 public key, 66 hex digits (02 or 03 first). A ' +
                'Bitcoin escrow is a 2-of-3 multisig over public keys, so an address is refused',
            ),
        }),
        response: {
          200: connectedSchema.describe('The signer was already registered: nothing changed'),
          201: connectedSchema,
          400: apiErrorSchema,
          409: apiErrorSchema,
          422: apiErrorSchema.describe(
            'INVALID_PUBLIC_KEY: on Bitcoin, an address instead of a public key, or a key that is not a ' +
              'compressed secp256k1 point; on Solana, an address off the ed25519 curve (a program-derived ' +
              'address, which no key can sign for)',
          ),
        },
      },
    },
    async (request, reply) => {
      const wallet = await connectWallet(
        { db, now: app.clock, bitcoinNetwork: app.config.bitcoinNetwork },
        principalOf(request).userId,
        request.body.chain,
        readWalletSigner(request.body.chain, request.body),
      );
      return reply.code(wallet.changed ? 201 : 200).send({
        chain: wallet.chain,
        address: wallet.address,
        connected_at: wallet.connectedAt.toISOString(),
      });
    },
  );

  routes.get(
    '/wallets/balance',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Wallets'],
        summary: 'Your registered addresses with their balances per token and the amounts you hold in escrow',
        response: { 200: z.object({ data: z.array(walletBalancesSchema) }) },
      },
    },
    async (request) => {
      const wallets = await listWalletBalances({ db, chains: app.chains }, principalOf(request).userId);
      return {
        data: wallets.map((wallet) => ({
          chain: wallet.chain,
          address: wallet.address,
          balances:
            wallet.balances?.map((balance) => ({ ...balance, amount: balance.amount.toString() })) ?? null,
          held_in_escrow: wallet.heldInEscrow.map((held) => ({
            symbol: held.symbol,
            amount: held.amount.toString(),
          })),
        })),
      };
    },
  );
};
