import {
  staffDealSearchQuerySchema,
  staffDealSearchResultSchema,
  staffDealViewSchema,
} from '@covenant/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireStaff } from '../../api/require-staff.js';
import { getStaffDeal } from '../../staff/get-staff-deal.js';
import { searchStaffDeals } from '../../staff/search-staff-deals.js';
import { apiErrorSchema } from './error-schema.js';
import { principalOf } from './principal-of.js';

/**
 * Under `/api/v1/staff`: compliance officers, mediators (and admins) find any deal and open it whole.
 * Every route checks role and a second factor (aal2) in `onRequest`, before any input is looked at;
 * every read is recorded in the deal's audit trail.
 */
export const staffDealRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const deps = { db: app.database.db, now: app.clock };
  const staffOnly = async (request: FastifyRequest) => {
    requireStaff(request.principal, ['compliance', 'mediator', 'admin'], 'The staff deal view');
  };

  routes.get(
    '/deals',
    {
      config: { access: 'staff' },
      onRequest: staffOnly,
      schema: {
        tags: ['Staff'],
        summary: 'Find deals by deal or escrow id, user (id, e-mail address, username) or address',
        description:
          'Exact matches, any case, newest deal first. Each deal listed is recorded in its audit trail as a ' +
          'staff read (`staff_viewed`, with what matched, never the search text).',
        querystring: staffDealSearchQuerySchema,
        response: { 200: staffDealSearchResultSchema },
      },
    },
    async (request) => searchStaffDeals(deps, principalOf(request).userId, request.query),
  );

  routes.get(
    '/deals/:id',
    {
      config: { access: 'staff' },
      onRequest: staffOnly,
      schema: {
        tags: ['Staff'],
        summary: 'One deal whole: terms, parties, escrow legs and movements, payouts, audit trail, alerts',
        description:
          'The read is recorded in the deal’s audit trail (`staff_viewed`) before the trail is read, so the ' +
          'trail shown ends with it. 404 NOT_FOUND for no such deal.',
        params: z.object({ id: z.uuid() }),
        response: { 200: staffDealViewSchema, 404: apiErrorSchema },
      },
    },
    async (request) => getStaffDeal(deps, principalOf(request).userId, request.params.id),
  );
};
