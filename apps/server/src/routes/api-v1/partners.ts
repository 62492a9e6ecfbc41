import { tradingTiers } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listPartners } from '../../profiles/list-partners.js';
import { principalOf } from './index.js';

const partnerSchema = z.object({
  id: z.uuid(),
  username: z.string().nullable(),
  verification_status: z.enum(['unverified', 'pending', 'verified', 'rejected']),
  trading_tier: z.enum(tradingTiers),
  kyc_completed: z.boolean(),
});

/** `GET /api/v1/partners`: verified, KYC-complete traders other than the caller (spec §6). */
export const apiV1PartnerRoutes: FastifyPluginAsync = async (app) => {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Profiles'],
        summary: 'Traders the caller can choose as counterparty',
        querystring: z.object({
          search: z.string().trim().max(100).optional().describe('part of the username, any case'),
          limit: z.coerce.number().int().min(1).max(200).default(50),
        }),
        response: { 200: z.object({ data: z.array(partnerSchema) }) },
      },
    },
    async (request) => ({
      data: await listPartners(app.database.db, {
        callerId: principalOf(request).userId,
        search: request.query.search,
        limit: request.query.limit,
      }),
    }),
  );
};
