import type { schema } from '@covenant/db';

const prefixes: Record<schema.SupportKind, string> = { contact: 'CNT', ticket: 'TKT' };

/** `CNT-2026-000123`: kind, the UTC year it was received, and its number padded to six digits. */
export function formatSupportReference(kind: schema.SupportKind, receivedAt: Date, number: number): string {
  return `${prefixes[kind]}-${receivedAt.getUTCFullYear()}-${String(number).padStart(6, '0')}`;
}
