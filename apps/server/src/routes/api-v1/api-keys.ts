import { singleLineText } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createApiKey } from '../../api-keys/create-api-key.js';
import { listApiKeys } from '../../api-keys/list-api-keys.js';
import { revokeApiKey } from '../../api-keys/revoke-api-key.js';
import { principalOf } from './principal-of.js';

const apiKeyScopeSchema = z.enum(['read', 'trade']);

const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string().describe('The first characters of the key, to recognise it'),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  scopes: z
    .array(apiKeyScopeSchema)
    .describe('read: the read operations; trade: deal actions too. Never sensitive or staff operations'),
});

/** `/api-keys`: create (the key is shown once), list and revoke the caller's API keys. */
export const apiKeyRoutes: FastifyPluginAsync = async (app) => {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;

  routes.post(
    '/api-keys',
    {
      config: { access: 'sensitive' },
      schema: {
        tags: ['API keys'],
        summary: 'Create an API key (the key is in this answer only)',
        security: [{ bearerAuth: [] }],
        body: z.object({
          name: singleLineText().min(1).max(100),
          scopes: z
            .array(apiKeyScopeSchema)
            .min(1)
            .max(2)
            .default(['read'])
            .describe('What the key may do (ADR 013); trade brings read. Without it: read only'),
        }),
        response: { 201: apiKeySchema.extend({ key: z.string().describe('cov_live_…, shown once') }) },
      },
    },
    async (request, reply) => {
      const key = await createApiKey({ db, now: app.clock }, principalOf(request).userId, request.body);
      return reply.code(201).send(key);
    },
  );

  routes.get(
    '/api-keys',
    {
      config: { access: 'session' },
      schema: {
        tags: ['API keys'],
        summary: 'List your API keys',
        security: [{ bearerAuth: [] }],
        response: { 200: z.object({ data: z.array(apiKeySchema) }) },
      },
    },
    async (request) => ({ data: await listApiKeys(db, principalOf(request).userId) }),
  );

  routes.delete(
    '/api-keys/:id',
    {
      config: { access: 'sensitive' },
      schema: {
        tags: ['API keys'],
        summary: 'Revoke an API key',
        security: [{ bearerAuth: [] }],
        params: z.object({ id: z.uuid() }),
        response: { 204: z.null().describe('Revoked') },
      },
    },
    async (request, reply) => {
      await revokeApiKey(db, principalOf(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
