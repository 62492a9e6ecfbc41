import { tradingTiers } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createCisDeps } from '../../cis/create-cis-deps.js';
import { listPartners } from '../../profiles/list-partners.js';
import { matchesStatusMessages, suggestCounterparties } from '../../profiles/suggest-counterparties.js';
import { principalOf } from './index.js';

const partnerSchema = z.object({
  id: z.uuid(),
  username: z.string().nullable(),
  verification_status: z.enum(['unverified', 'pending', 'verified', 'rejected']),
  trading_tier: z.enum(tradingTiers),
  kyc_completed: z.boolean(),
});

const matchSchema = partnerSchema.extend({
  score: z.number().int().min(0).max(100).describe('how well the two sheets fit, 0 to 100'),
  reasons: z
    .array(z.string())
    .describe(
      'why, one phrase per factor (asset/chain pairs, sizes, settlement window, completed deals, disputes), e.g. "both trade BTC against USDC on Ethereum"',
    ),
});

const statuses = Object.keys(matchesStatusMessages) as [keyof typeof matchesStatusMessages];

/** `GET /api/v1/partners`: verified, KYC-complete traders other than the caller (spec §6); `/matches`: the suggested ones. */
export const apiV1PartnerRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
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

  const matchDeps = {
    ...(await createCisDeps(app)),
    deniedJurisdictions: app.config.matching.deniedJurisdictions,
  };
  routes.get(
    '/matches',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Profiles'],
        summary: 'Suggested counterparties, ranked by how well their CIS fits the caller’s',
        description:
          'Matches the newest Customer Information Sheet of the caller against the newest sheet of every ' +
          'verified, KYC-complete trader who has one and has not opted out (matching_opt_out on the profile). ' +
          'Candidates with no asset/chain pair in common, a jurisdiction on the deny list ' +
          '(MATCHING_DENIED_JURISDICTIONS) or tier limits unable to carry the smallest size both would trade ' +
          'are left out; the rest are ranked by score (pairs 35, size overlap 30, settlement window 15, ' +
          'completed deals 10, disputes against them 10). Each shows only what GET /partners shows, the score ' +
          'and the reasons: never the other party’s sheet. A caller without KYC or without a sheet gets 200 ' +
          'with an empty list, a status saying why (kyc_required, cis_required, jurisdiction_denied) and a ' +
          'message to show; ready otherwise.',
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(50).default(10),
        }),
        response: {
          200: z.object({
            status: z.enum(statuses),
            message: z.string().nullable().describe('why there are no suggestions, when status is not ready'),
            data: z.array(matchSchema),
          }),
        },
      },
    },
    async (request) =>
      suggestCounterparties(matchDeps, { callerId: principalOf(request).userId, limit: request.query.limit }),
  );
};
