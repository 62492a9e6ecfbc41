import { travelItemSchema, travelRequestSchema } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findPartyDeal } from '../../disputes/find-party-deal.js';
import { cancelTravel } from '../../travel/cancel-travel.js';
import { createTravelDeps } from '../../travel/create-travel-deps.js';
import { listDealTravel } from '../../travel/list-deal-travel.js';
import { readTravelFile } from '../../travel/read-travel-file.js';
import { requestTravel } from '../../travel/request-travel.js';
import { sendEvidence } from './disputes.js';
import { principalOf } from './principal-of.js';

const dealIdParams = z.object({ id: z.uuid() });
const itemParams = z.object({ id: z.uuid(), item_id: z.uuid() });

/**
 * Travel for a deal's meeting under `/deals/{id}/travel`, for the deal's parties: request an item,
 * list them with their quotes and approvals, cancel one, download its quote file. Anybody else: 404.
 */
export const travelRoutes: FastifyPluginAsync = async (app) => {
  const deps = await createTravelDeps(app);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/deals/:id/travel',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Travel'],
        summary: 'Ask the concierge for a flight, a hotel or ground transport for the meeting',
        description:
          'For either party as traveller. 409 MEETING_NOT_REQUIRED when the terms require ' +
          'no meeting; 409 DEAL_NOT_ACTIVE when the deal is completed, cancelled or disputed.',
        params: dealIdParams,
        body: travelRequestSchema,
        response: { 201: travelItemSchema },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await requestTravel(deps, principalOf(request).userId, request.params.id, request.body)),
  );

  routes.get(
    '/deals/:id/travel',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Travel'],
        summary: "A deal's travel items, oldest first, with their quotes and approvals",
        params: dealIdParams,
        response: { 200: z.object({ data: z.array(travelItemSchema) }) },
      },
    },
    async (request) => ({
      data: await listDealTravel(deps, principalOf(request).userId, request.params.id),
    }),
  );

  routes.post(
    '/deals/:id/travel/:item_id/cancel',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Travel'],
        summary: 'Cancel a travel item while it is requested or quoted (either party)',
        description: '409 CONFLICT (reason travel_status) once a quote is approved, paid or booked.',
        params: itemParams,
        response: { 200: travelItemSchema },
      },
    },
    async (request) =>
      cancelTravel(deps, principalOf(request).userId, request.params.id, request.params.item_id),
  );

  routes.get(
    '/deals/:id/travel/:item_id/file',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Travel'],
        summary: "The item's quote or booking confirmation file, decrypted, with its content type",
        params: itemParams,
      },
    },
    async (request, reply) => {
      const { id, item_id } = request.params;
      await findPartyDeal(deps.db, principalOf(request).userId, id);
      return sendEvidence(reply, await readTravelFile(deps, { itemId: item_id, dealId: id }));
    },
  );
};
