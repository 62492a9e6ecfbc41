import { schema } from '@covenant/db';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { EscrowDevnet } from './start-escrow-devnet.js';

/**
 * Every base unit of the deal's legs accounted: per leg, the confirmed deposits equal the confirmed
 * travel payouts + payouts + fees + refunds + sweeps + network fees, and no staff alert was raised.
 * Returns the deal's ledger entries for further checks.
 */
export async function expectBooksBalance(net: EscrowDevnet, dealId: string) {
  const { db } = net.database;
  const [escrow] = await db.select().from(schema.escrows).where(eq(schema.escrows.dealId, dealId));
  if (!escrow) throw new Error(`deal ${dealId} has no escrow`);
  const entries = await db
    .select()
    .from(schema.escrowLedgerEntries)
    .where(eq(schema.escrowLedgerEntries.escrowId, escrow.id));
  for (const name of ['asset', 'stable'] as const) {
    const sum = (kinds: string[]) =>
      entries
        .filter((entry) => entry.leg === name && entry.status === 'confirmed' && kinds.includes(entry.kind))
        .reduce((total, entry) => total + BigInt(entry.amount), 0n);
    expect(sum(['deposit']), `${name} leg`).toBe(
      sum(['travel', 'payout', 'fee', 'refund', 'sweep', 'network_fee']),
    );
  }
  expect(await db.select().from(schema.staffAlerts)).toEqual([]);
  return entries;
}
