import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createWebhookEndpoint } from '../../webhooks/create-webhook-endpoint.js';
import { deleteWebhookEndpoint } from '../../webhooks/delete-webhook-endpoint.js';
import { listWebhookDeliveries } from '../../webhooks/list-webhook-deliveries.js';
import { listWebhookEndpoints } from '../../webhooks/list-webhook-endpoints.js';
import { replayWebhookDelivery } from '../../webhooks/replay-webhook-delivery.js';
import { webhookEvents } from '../../webhooks/webhook-events.js';
import { principalOf } from './principal-of.js';

const endpointSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.string()),
  created_at: z.string(),
});

const deliverySchema = z.object({
  id: z.uuid(),
  event: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempt_count: z.number().int(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  attempts: z.array(
    z.object({
      attempted_at: z.string(),
      response_status: z.number().int().nullable(),
      error: z.string().nullable(),
      duration_ms: z.number().int(),
    }),
  ),
});

const security = [{ bearerAuth: [] }];
const endpointParams = z.object({ id: z.uuid() });

/**
 * `/webhooks`: endpoints that receive signed events
 * (`Covenant-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`),
 * their delivery log with every attempt, and replay.
 */
export const webhookRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;

  routes.post(
    '/webhooks',
    {
      config: { access: 'sensitive' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Register an endpoint for events (the signing secret is in this answer only)',
        security,
        body: z.object({ url: z.string().max(2000), events: z.array(z.enum(webhookEvents)).min(1) }),
        response: { 201: endpointSchema.extend({ secret: z.string().describe('whsec_…, shown once') }) },
      },
    },
    async (request, reply) => {
      const endpoint = await createWebhookEndpoint(
        { db, now: app.clock, allowPrivateTargets: app.config.webhookAllowPrivate },
        principalOf(request).userId,
        request.body,
      );
      return reply.code(201).send(endpoint);
    },
  );

  routes.get(
    '/webhooks',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Webhooks'],
        summary: 'List your webhook endpoints',
        security,
        response: { 200: z.object({ data: z.array(endpointSchema) }) },
      },
    },
    async (request) => ({ data: await listWebhookEndpoints(db, principalOf(request).userId) }),
  );

  routes.delete(
    '/webhooks/:id',
    {
      config: { access: 'sensitive' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Delete a webhook endpoint and its delivery log',
        security,
        params: endpointParams,
        response: { 204: z.null().describe('Deleted') },
      },
    },
    async (request, reply) => {
      await deleteWebhookEndpoint(db, principalOf(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  routes.get(
    '/webhooks/:id/deliveries',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Webhooks'],
        summary: 'The delivery log of an endpoint, newest first, with every attempt',
        security,
        params: endpointParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) }),
        response: { 200: z.object({ data: z.array(deliverySchema) }) },
      },
    },
    async (request) => ({
      data: await listWebhookDeliveries(
        db,
        principalOf(request).userId,
        request.params.id,
        request.query.limit,
      ),
    }),
  );

  routes.post(
    '/webhooks/:id/deliveries/:delivery_id/replay',
    {
      config: { access: 'trade' },
      schema: {
        tags: ['Webhooks'],
        summary: 'Send a delivery again (same body, fresh signature)',
        security,
        params: z.object({ id: z.uuid(), delivery_id: z.uuid() }),
        response: { 202: z.object({ id: z.uuid(), status: z.literal('pending') }) },
      },
    },
    async (request, reply) => {
      const replay = await replayWebhookDelivery(
        { db, jobs: app.jobs, deliverJob: app.deliverWebhookJob },
        principalOf(request).userId,
        request.params.id,
        request.params.delivery_id,
      );
      return reply.code(202).send(replay);
    },
  );
};
