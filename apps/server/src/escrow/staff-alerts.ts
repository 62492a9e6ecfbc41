import { schema } from '@covenant/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';

export interface StaffAlert {
  kind: string;
  subject: string;
  message: string;
  details: Record<string, unknown>;
}

/**
 * Opens an alert for staff, once: while one of the same kind and subject is open, nothing is added.
 * Whether it was opened now.
 */
export async function raiseStaffAlert(
  deps: Pick<EscrowEngineDeps, 'db' | 'now' | 'logger'>,
  alert: StaffAlert,
): Promise<boolean> {
  const inserted = await deps.db
    .insert(schema.staffAlerts)
    .values({ ...alert, createdAt: deps.now() })
    .onConflictDoNothing()
    .returning({ id: schema.staffAlerts.id });
  if (inserted.length > 0) deps.logger.warn({ alert: alert.kind, subject: alert.subject }, alert.message);
  return inserted.length > 0;
}

export type StaffAlertRow = typeof schema.staffAlerts.$inferSelect;

/**
 * Marks the open alert with this id, or the open one of this kind and subject, resolved, by the staff
 * member `resolvedBy` (null: the engine found the problem gone): one conditional update, so two
 * callers at once cannot both resolve it. The alert it resolved; null when none was open.
 */
export async function resolveStaffAlert(
  deps: Pick<EscrowEngineDeps, 'db' | 'now'>,
  match: { id: string } | { kind: string; subject: string },
  resolvedBy: string | null = null,
): Promise<StaffAlertRow | null> {
  const { staffAlerts } = schema;
  const which =
    'id' in match
      ? eq(staffAlerts.id, match.id)
      : and(eq(staffAlerts.kind, match.kind), eq(staffAlerts.subject, match.subject));
  const [resolved] = await deps.db
    .update(staffAlerts)
    .set({ resolvedAt: deps.now(), resolvedBy })
    .where(and(which, isNull(staffAlerts.resolvedAt)))
    .returning();
  return resolved ?? null;
}
