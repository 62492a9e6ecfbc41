import { AppError } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from './error-schema.js';

const chain = z.enum(['BTC', 'ETH', 'SOL']);
const baseUnits = z.string().regex(/^\d{1,78}$/, 'base units as a decimal string');

const escrowSchema = z.object({
  escrow_id: z.uuid(),
  deal_id: z.uuid(),
  status: z.string(),
  deposit_addresses: z.object({ asset: z.string(), stable: z.string() }),
});

/**
 * The escrow endpoints of the spec, declared with their schemas so integrators can build against
 * them; they answer 501 NOT_IMPLEMENTED until escrow is built. The wallet endpoints live in wallets.ts.
 */
export const escrowAndWalletRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const notImplemented = async (): Promise<never> => {
    throw new AppError('NOT_IMPLEMENTED', 'Escrow is not available yet');
  };
  const security = [{ bearerAuth: [] }];

  routes.post(
    '/escrow/create',
    {
      schema: {
        tags: ['Escrow'],
        summary: 'Create the escrow of a deal whose terms are agreed',
        security,
        body: z.object({ deal_id: z.uuid() }),
        response: { 201: escrowSchema, 501: apiErrorSchema },
      },
    },
    notImplemented,
  );

  routes.post(
    '/escrow/fund',
    {
      schema: {
        tags: ['Escrow'],
        summary: 'Report a deposit into a deal’s escrow',
        security,
        body: z.object({
          deal_id: z.uuid(),
          transaction_hash: z.string().min(1).max(200),
          chain,
          amount: baseUnits,
        }),
        response: { 202: escrowSchema, 501: apiErrorSchema },
      },
    },
    notImplemented,
  );

  routes.get(
    '/escrow/:id/status',
    {
      schema: {
        tags: ['Escrow'],
        summary: 'Read an escrow’s funding and settlement status',
        security,
        params: z.object({ id: z.uuid() }),
        response: { 200: escrowSchema, 501: apiErrorSchema },
      },
    },
    notImplemented,
  );

  routes.post(
    '/escrow/release',
    {
      schema: {
        tags: ['Escrow'],
        summary: 'Sign the release of your side of a funded escrow',
        security,
        body: z.object({ escrow_id: z.uuid(), side: z.enum(['buyer', 'seller']) }),
        response: { 202: escrowSchema, 501: apiErrorSchema },
      },
    },
    notImplemented,
  );
};
