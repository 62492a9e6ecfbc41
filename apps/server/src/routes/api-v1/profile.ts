import { tradingTiers } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getProfile } from '../../profiles/get-profile.js';
import { updateProfileSettings } from '../../profiles/update-profile-settings.js';
import { principalOf } from './index.js';

const profileSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  username: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  verification_status: z.enum(['unverified', 'pending', 'verified', 'rejected']),
  trading_tier: z.enum(tradingTiers),
  kyc_completed: z.boolean(),
  tier_limit_usd: z
    .string()
    .nullable()
    .describe('per-transaction limit of the tier in whole US dollars; null until KYC is complete'),
  roles: z.array(z.string()),
  matching_opt_out: z
    .boolean()
    .describe('true: the trader is not suggested to others as a counterparty (GET /api/v1/partners/matches)'),
});

/** `GET /api/v1/user/profile` (spec §7), and `PATCH` for the caller's own settings. */
export const apiV1ProfileRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    '/profile',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Profiles'],
        summary: "The caller's profile: verification, trading tier and its limit",
        response: { 200: profileSchema },
      },
    },
    async (request) => {
      const { userId, roles } = principalOf(request);
      return getProfile(app.database.db, { userId, roles });
    },
  );

  routes.patch(
    '/profile',
    {
      // An account setting of the person, like their API keys: nothing an integration changes.
      config: { access: 'session' },
      schema: {
        tags: ['Profiles'],
        summary: "Change the caller's profile settings",
        body: z.strictObject({
          matching_opt_out: z
            .boolean({ error: 'matching_opt_out is true or false' })
            .optional()
            .describe('true: not suggested to other traders as a counterparty'),
        }),
        response: { 200: profileSchema },
      },
    },
    async (request) => {
      const { userId, roles } = principalOf(request);
      return updateProfileSettings(app.database.db, { userId, roles }, request.body);
    },
  );
};
