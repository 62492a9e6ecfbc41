import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { connectWallet } from '../../wallets/connect-wallet.js';
import { listWalletBalances } from '../../wallets/list-wallet-balances.js';
import { apiErrorSchema } from './error-schema.js';
import { principalOf } from './principal-of.js';

const chain = z.enum(['BTC', 'ETH', 'SOL']);
const baseUnits = z.string().regex(/^\d{1,78}$/, 'base units as a decimal string');

const connectedSchema = z.object({
  chain,
  address: z.string().describe('Ethereum addresses in their EIP-55 checksummed form'),
  connected_at: z.string().describe('When this address became your signing address on the chain'),
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
          'Register the address you sign escrow transactions with on a chain (one per chain); it cannot ' +
          'change while an escrow you sign for is funded',
        body: z.object({ chain, address: z.string().min(1).max(200) }),
        response: {
          200: connectedSchema.describe('The address was already registered: nothing changed'),
          201: connectedSchema,
          400: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const wallet = await connectWallet(
        { db, now: app.clock, bitcoinNetwork: app.config.bitcoinNetwork },
        principalOf(request).userId,
        request.body.chain,
        request.body.address,
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
