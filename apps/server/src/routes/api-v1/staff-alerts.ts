import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireStaff } from '../../api/require-staff.js';
import { resolveStaffAlert, type StaffAlertRow } from '../../escrow/staff-alerts.js';
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
  resolved_by: z
    .string()
    .nullable()
    .describe(
      'The e-mail of the staff member who resolved it; null while open and when the engine saw the problem gone',
    ),
});

function toStaffAlert(
  alert: StaffAlertRow,
  resolvedBy: string | null = null,
): z.infer<typeof staffAlertSchema> {
  return {
    id: alert.id,
    kind: alert.kind,
    subject: alert.subject,
    message: alert.message,
    details: alert.details,
    created_at: alert.createdAt.toISOString(),
    resolved_at: alert.resolvedAt?.toISOString() ?? null,
    resolved_by: resolvedBy,
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
  const emailOf = async (userId: string): Promise<string | null> => {
    const [user] = await db
      .select({ email: schema.users.email })
      .from(schema.users)
      .where(eq(schema.users.id, userId));
    return user?.email ?? null;
  };

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
    async () => ({ data: (await app.escrow.openAlerts()).map((alert) => toStaffAlert(alert)) }),
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
      // Two staff resolving at once cannot both succeed (one conditional update).
      const staffId = principalOf(request).userId;
      const resolved = await resolveStaffAlert({ db, now: app.clock }, { id: request.params.id }, staffId);
      if (!resolved) throw new AppError('NOT_FOUND', 'No open alert with this id');
      request.log.info(
        { staff_id: staffId, alert_id: resolved.id, kind: resolved.kind },
        'staff alert resolved',
      );
      return toStaffAlert(resolved, await emailOf(staffId));
    },
  );

  routes.post(
    '/alerts/:id/return-foreign-deposit',
    {
      config: { access: 'staff' },
      onRequest: async (request) => {
        requireStaff(request.principal, ['compliance', 'admin'], 'Returning a wrong-token deposit');
      },
      schema: {
        tags: ['Staff'],
        summary:
          'Send a wrong-token deposit held for staff, or one whose return failed, back to the party who sent it (compliance, admins)',
        description:
          'For a `wrong_token_deposit` alert whose sender was no address of either party (`details.sender` ' +
          'null), or a `foreign_asset_return_failed` alert (the return reverted, was never mined, or the ' +
          'node refused to build it): the deposit goes back to `party` at that party’s address in the ' +
          'leg’s terms (the escrow allows no other address on the platform’s signature alone, and returns ' +
          'each deposit once), the deal’s history records it (`foreign_deposit_returned`) and the ' +
          'deposit’s open alerts are resolved. 404 NOT_FOUND for an alert that is not open; 409 CONFLICT ' +
          'for another kind of alert, a deposit whose return is already on its way or done, a chain whose ' +
          'escrow cannot return it by itself, or a return the chain’s node refuses (nothing is sent; the ' +
          'message gives the node’s reason).',
        params: z.object({ id: z.uuid() }),
        body: z.object({
          party: z.enum(['buyer', 'seller']).describe('The party who showed the deposit was theirs'),
        }),
        response: {
          200: z.object({
            alert: staffAlertSchema,
            to: z.string().describe('The party’s address in the leg’s terms the deposit goes back to'),
            return_transaction: z.string().describe('The relayer’s transaction returning it'),
          }),
          404: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const staffId = principalOf(request).userId;
      const result = await app.escrow.returnHeldForeignDeposit(
        staffId,
        request.params.id,
        request.body.party,
      );
      request.log.info(
        { staff_id: staffId, alert_id: request.params.id, party: request.body.party },
        'held wrong-token deposit returned',
      );
      return {
        alert: toStaffAlert(result.alert, await emailOf(staffId)),
        to: result.to,
        return_transaction: result.returnTransaction,
      };
    },
  );
};
