import { writeSync } from 'node:fs';

/**
 * Where a test may stop the server dead (SIGKILL) in the middle of settling, to prove that a
 * restart on the same data settles each deal exactly once (`ESCROW_CRASH_POINT`, refused in
 * production):
 * - `after-cosign`: a payout is co-signed and its signed transaction stored, not broadcast;
 * - `after-submit`: a payout's transaction (a refund's excepted) is broadcast, not yet recorded as sent;
 * - `before-confirmation`: a sent payout is deep enough and its movements are in the ledger, but
 *   the payout is not marked confirmed and the escrow (and deal) not closed;
 * - `mid-refund`: a refund's transaction is broadcast, not yet recorded as sent (the chaos suite
 *   stops a cancelled deal there between its two legs' refunds);
 * - `after-relayer-store`: one of the relayer's other transactions (an escrow's deployment, a sweep,
 *   a wrong-token return) is signed and stored, not broadcast.
 */
export const escrowCrashPoints = [
  'after-cosign',
  'after-submit',
  'before-confirmation',
  'mid-refund',
  'after-relayer-store',
] as const;

export type EscrowCrashPoint = (typeof escrowCrashPoints)[number];

/** Kills the process with SIGKILL when the engine is set to crash at `point`; otherwise returns at once. */
export async function crashIfAt(
  configured: EscrowCrashPoint | undefined,
  point: EscrowCrashPoint,
  detail: string,
): Promise<void> {
  if (configured !== point) return;
  // Written synchronously: the logger's buffered line would die with the process.
  writeSync(2, `crash point ${point}: killing the process (${detail})\n`);
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL is delivered asynchronously; nothing after the crash point may run meanwhile.
  await new Promise(() => {});
}
