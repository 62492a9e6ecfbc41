import { schema } from '@covenant/db';
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
