import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireStaff } from '../../api/require-staff.js';
import { apiErrorSchema } from './error-schema.js';
import { principalOf } from './principal-of.js';

const staffAlertSchema = z.object({
  id: z.uuid(),
  kind: z.string(),
  subject: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
});

type StaffAlertRow = typeof schema.staffAlerts.$inferSelect;

function toStaffAlert(alert: StaffAlertRow): z.infer<typeof staffAlertSchema> {
  return {
    id: alert.id,
    kind: alert.kind,
    subject: alert.subject,
    message: alert.message,
    details: alert.details,
    created_at: alert.createdAt.toISOString(),
    resolved_at: alert.resolvedAt?.toISOString() ?? null,
  };
}

/**
 * Under `/api/v1/staff`: the escrow engine's alerts (reconciliation mismatches, refused payouts,
 * wrong tokens). Mediators, compliance officers and admins read them; only compliance and admins
 * close them, because resolving one says the money was looked at, which is not a mediator's call.
 * Every route checks role and a second factor (aal2) in `onRequest`, before any input is looked at.
 */
export const staffAlertRoutes: FastifyPluginAsync = async (app) => {
  const db = app.database.db;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    '/alerts',
    {
      config: { access: 'staff' },
      onRequest: async (request) => {
        requireStaff(request.principal, ['mediator', 'compliance', 'admin'], 'The escrow engine’s alerts');
      },
      schema: {
        tags: ['Staff'],
        summary:
          'Open alerts of the escrow engine (reconciliation mismatches, refused payouts, wrong tokens), newest first',
        response: { 200: z.object({ data: z.array(staffAlertSchema) }) },
      },
    },
    async () => ({ data: (await app.escrow.openAlerts()).map(toStaffAlert) }),
  );

  routes.post(
    '/alerts/:id/resolve',
    {
      config: { access: 'staff' },
      onRequest: async (request) => {
        requireStaff(request.principal, ['compliance', 'admin'], 'Resolving an alert');
      },
      schema: {
        tags: ['Staff'],
        summary: 'Mark an open alert resolved (compliance, admins)',
        description:
          'The engine raises a new alert of the same kind and subject if the problem shows up again. ' +
          '404 NOT_FOUND for an unknown alert or one already resolved.',
        params: z.object({ id: z.uuid() }),
        response: { 200: staffAlertSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      // One conditional update, so two staff resolving at once cannot both succeed.
      const [resolved] = await db
        .update(schema.staffAlerts)
        .set({ resolvedAt: app.clock() })
        .where(and(eq(schema.staffAlerts.id, request.params.id), isNull(schema.staffAlerts.resolvedAt)))
        .returning();
      if (!resolved) throw new AppError('NOT_FOUND', 'No open alert with this id');
      request.log.info(
        { staff_id: principalOf(request).userId, alert_id: resolved.id, kind: resolved.kind },
        'staff alert resolved',
      );
      return toStaffAlert(resolved);
    },
  );
};
