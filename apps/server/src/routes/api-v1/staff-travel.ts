import { createHash } from 'node:crypto';
import {
  AppError,
  staffTravelItemSchema,
  travelItemStatuses,
  travelQuoteRequestSchema,
} from '@covenant/domain';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireStaff } from '../../api/require-staff.js';
import { attachTravelFile } from '../../travel/attach-travel-file.js';
import { createTravelDeps } from '../../travel/create-travel-deps.js';
import { listTravelQueue } from '../../travel/list-travel-queue.js';
import { markTravelBooked } from '../../travel/mark-travel-booked.js';
import { quoteTravel } from '../../travel/quote-travel.js';
import { readTravelFile } from '../../travel/read-travel-file.js';
import { readTravelForm } from '../../travel/read-travel-form.js';
import { sendEvidence } from './disputes.js';
import { principalOf } from './principal-of.js';

const itemParams = z.object({ item_id: z.uuid() });

/**
 * The concierge's desk under `/api/v1/staff/travel`: the queue of travel requests, quotes, quote
 * files and bookings. 403 for anyone but concierge staff with a second factor.
 */
export const staffTravelRoutes: FastifyPluginAsync = async (app) => {
  const deps = await createTravelDeps(app);
  // The quote file is read part by part with its own limits; the JSON body limit does not apply.
  await app.register(multipart);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Registered inside the authenticated /api/v1 scope, whose hook has set `request.principal`.
  app.addHook('onRequest', async (request) => {
    requireStaff(request.principal, ['concierge'], 'The concierge desk');
  });

  routes.get(
    '/',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Concierge'],
        summary:
          'The travel queue: requested and quoted items first, oldest first, with their deal and traveller',
        querystring: z.object({
          status: z.enum(travelItemStatuses).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(100),
        }),
        response: { 200: z.object({ data: z.array(staffTravelItemSchema) }) },
      },
    },
    async (request) => ({ data: await listTravelQueue(deps, request.query) }),
  );

  routes.post(
    '/:item_id/quote',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Concierge'],
        summary: "Quote an item in the deal's stable token, payable to the provider on the stable chain",
        description:
          'While the item is requested or quoted; a new quote raises its version, so earlier approvals lapse. ' +
          '400 VALIDATION_FAILED when the payee address does not fit the stable chain.',
        params: itemParams,
        body: travelQuoteRequestSchema,
        response: { 200: staffTravelItemSchema },
      },
    },
    async (request) => quoteTravel(deps, principalOf(request).userId, request.params.item_id, request.body),
  );

  routes.post(
    '/:item_id/file',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Concierge'],
        summary:
          'Attach the quote or booking confirmation (one PDF, PNG or JPEG, at most 10 MB), stored encrypted',
        consumes: ['multipart/form-data'],
        params: itemParams,
        response: { 200: staffTravelItemSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new AppError('VALIDATION_FAILED', 'Send the file as multipart/form-data');
      }
      const upload = await readTravelForm(request);
      const sent = await app.claimIdempotencyKey(request, reply, {
        file: [upload.filename, createHash('sha256').update(upload.content).digest('hex')],
      });
      if (sent) return reply;
      return reply.send(
        await attachTravelFile(deps, principalOf(request).userId, request.params.item_id, upload),
      );
    },
  );

  routes.get(
    '/:item_id/file',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Concierge'],
        summary: "The item's quote or booking confirmation file, decrypted, with its content type",
        params: itemParams,
      },
    },
    async (request, reply) =>
      sendEvidence(reply, await readTravelFile(deps, { itemId: request.params.item_id })),
  );

  routes.post(
    '/:item_id/booked',
    {
      config: { access: 'staff' },
      schema: {
        tags: ['Concierge'],
        summary: 'Mark an item booked once its payout to the provider is paid',
        description: '409 CONFLICT (reason travel_status) unless the item is paid.',
        params: itemParams,
        response: { 200: staffTravelItemSchema },
      },
    },
    async (request) => markTravelBooked(deps, principalOf(request).userId, request.params.item_id),
  );
};
