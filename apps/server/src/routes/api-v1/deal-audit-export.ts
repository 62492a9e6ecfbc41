import { dealAuditExportFormat, dealAuditExportSchema } from '@covenant/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { getDealAudit } from '../../deals/get-deal-audit.js';
import { principalOf } from './principal-of.js';

/**
 * `GET /deals/{id}/audit/export`: a party's copy of the deal's audit trail as a file, which
 * `npx covenant verify-audit deal-<id>-audit.json` checks offline (docs/audit-trail.md).
 */
export const dealAuditExportRoutes: FastifyPluginAsync = async (app) => {
  const db = app.database.db;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/deals/:id/audit/export',
    {
      config: { access: 'read' },
      schema: {
        tags: ['Trading'],
        summary: 'Download a deal’s audit trail as a JSON file to verify offline (either party)',
        description:
          'Verify it with `npx covenant verify-audit deal-<id>-audit.json` in a checkout of the project.',
        params: z.object({ id: z.uuid() }),
        response: { 200: dealAuditExportSchema },
      },
    },
    async (request, reply) => {
      const trail = await getDealAudit(db, principalOf(request).userId, request.params.id);
      reply.header('content-disposition', `attachment; filename="deal-${trail.deal_id}-audit.json"`);
      return {
        format: dealAuditExportFormat,
        deal_id: trail.deal_id,
        exported_at: app.clock().toISOString(),
        entries: trail.entries,
      };
    },
  );
};
