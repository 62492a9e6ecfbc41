import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import type { Leg } from '@covenant/escrow';
import { desc, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { JobDefinition } from '../jobs/job-definition.js';
import { type Approval, type ApprovalTarget, approvePayout } from './approve-payout.js';
import { approveTravelPayout } from './approve-travel-payout.js';
import { confirmPayouts, reconcileEscrow } from './confirm-payouts.js';
import { createEscrow } from './create-escrow.js';
import { enforceDeadlines } from './enforce-deadlines.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { escrowStatusView } from './escrow-status-view.js';
import { findLeg, findPartyEscrow } from './find-party-escrow.js';
import { preparePayouts } from './prepare-payouts.js';
import { refreshEscrows } from './refresh-legs.js';
import { followRelayerTransactions } from './relayer-transactions.js';
import { reportDeposit } from './report-deposit.js';
import { submitPayouts } from './submit-payouts.js';
import { sweepLateDeposits } from './sweep-late-deposits.js';
import { prepareTravelPayouts } from './travel-payouts.js';
import { watchChain } from './watch-chain.js';

export type EscrowEngine = ReturnType<typeof createEscrowEngine>;

/** The lock a pass holds across server processes. */
export const escrowPassLock = 'escrow-engine-pass';

/**
 * The escrow engine: the use cases the API calls, and one pass of its background work (`tick`):
 * watch each chain, enforce deadlines, prepare payouts (settlements, refunds, mediator decisions),
 * send approved ones, follow them to confirmation and reconcile. Every step is idempotent and reads
 * its work from the database, so a pass can be repeated, interrupted or run after a crash. Passes
 * never overlap, within the process or across server processes on one database (a process finding
 * another in a pass skips its own); the server runs them every `pollMs` and after every request
 * that may unblock one, and the job queue runs one a minute as a backstop.
 */
export function createEscrowEngine(deps: EscrowEngineDeps) {
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

  /**
   * A pass, unless another server process on the database is in one (it covers this one's work).
   * Each pass logs when it held the lock (debug): replicas' passes never overlap.
   */
  async function pass(): Promise<void> {
    await deps.locks.tryExclusively(escrowPassLock, async () => {
      const startedAt = Date.now();
      await passAlone();
      deps.logger.debug({ startedAt, endedAt: Date.now() }, 'escrow pass');
    });
  }

  async function passAlone(): Promise<void> {
    const touched: string[] = [];
    for (const chain of deps.chains.values()) touched.push(...(await watchChain(deps, chain)));
    // Deployments, sweeps and wrong-token returns sent by earlier passes or requests: done, or pushed.
    touched.push(...(await followRelayerTransactions(deps)));
    await refreshEscrows(deps, touched);
    await sweepLateDeposits(deps, touched);
    await refreshEscrows(deps, await enforceDeadlines(deps));
    await preparePayouts(deps);
    await prepareTravelPayouts(deps);
    await submitPayouts(deps);
    // Money that reached a leg while its payout was on its way is returned once the leg is settled.
    await sweepLateDeposits(deps, await confirmPayouts(deps));
  }

  /** Runs a pass, or, when one is running, one more right after it. Resolves when the pass that covers this call is done. */
  function tick(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await pass();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  function tickInBackground(): void {
    tick().catch((error: unknown) => deps.logger.error({ err: error }, 'escrow engine pass failed'));
  }

  return {
    tick,
    tickInBackground,
    /** Starts passes every `pollMs` (none when 0). */
    start(pollMs: number): void {
      if (pollMs <= 0 || timer || deps.chains.size === 0) return;
      timer = setInterval(tickInBackground, pollMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => {});
    },
    async create(userId: string, dealId: string) {
      return createEscrow(deps, userId, dealId);
    },
    status: (userId: string, by: { escrowId: string } | { dealId: string }) =>
      escrowStatusView(deps, userId, by),
    async reportDeposit(userId: string, input: Parameters<typeof reportDeposit>[2]) {
      const result = await reportDeposit(deps, userId, input);
      tickInBackground();
      return result;
    },
    async approve(userId: string, target: ApprovalTarget, approval: Approval) {
      const result = await approvePayout(deps, userId, target, approval);
      tickInBackground();
      return result;
    },
    /** A party's approval of a travel quote (the buyer's with its signature of the payout). */
    async approveTravel(
      userId: string,
      input: { dealId: string; itemId: string; approval: Approval | null },
    ) {
      const result = await approveTravelPayout(deps, userId, input.dealId, input.itemId, input.approval);
      if (result.changed) tickInBackground();
      return result;
    },
    /** Devnet only: pays the caller's leg (or `amount` of it) from the devnet wallet. */
    async devFund(userId: string, input: { dealId: string; leg: Leg; amount?: bigint }) {
      const found = await findPartyEscrow(deps.db, userId, { dealId: input.dealId });
      const leg = await findLeg(deps.db, found.escrow.id, input.leg);
      const chain = deps.chains.get(leg.chain);
      if (!chain?.info.devnet || !chain.devFund)
        throw new AppError('NOT_FOUND', 'No devnet wallet for this leg');
      const amount = input.amount ?? BigInt(leg.requiredAmount);
      if (amount <= 0n) throw new AppError('VALIDATION_FAILED', 'The amount must be positive');
      const transactionHash = await chain.devFund(leg.depositAddress, leg.tokenAddress, amount);
      tickInBackground();
      return { leg: leg.leg, depositAddress: leg.depositAddress, amount, transactionHash };
    },
    /** The engine's open alerts for staff, newest first. */
    openAlerts: () =>
      deps.db
        .select()
        .from(schema.staffAlerts)
        .where(isNull(schema.staffAlerts.resolvedAt))
        .orderBy(desc(schema.staffAlerts.createdAt))
        .limit(200),
    /** pg-boss jobs: a pass a minute (a backstop to the in-process timer) and an hourly reconciliation of every escrow. */
    jobs(): JobDefinition[] {
      return [
        { name: 'escrow-pass', payload: z.object({}), cron: '* * * * *', handle: () => tick() },
        {
          name: 'escrow-reconcile',
          payload: z.object({}),
          cron: '17 * * * *',
          handle: async () => {
            const escrows = await deps.db.select({ id: schema.escrows.id }).from(schema.escrows);
            for (const escrow of escrows) await reconcileEscrow(deps, escrow.id);
          },
        },
      ];
    },
  };
}
