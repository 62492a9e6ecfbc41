import { schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import type { Leg, NewBlockSubscription } from '@covenant/escrow';
import { desc, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { JobDefinition } from '../jobs/job-definition.js';
import { type Approval, type ApprovalTarget, approvePayout } from './approve-payout.js';
import { approveTravelPayout } from './approve-travel-payout.js';
import { confirmPayouts, reconcileEscrow } from './confirm-payouts.js';
import { createEscrow } from './create-escrow.js';
import { enforceDeadlines } from './enforce-deadlines.js';
import type { EscrowChain } from './escrow-chains.js';
import type { EscrowEngineDeps } from './escrow-engine-deps.js';
import { escrowStatusView } from './escrow-status-view.js';
import { findLeg, findPartyEscrow } from './find-party-escrow.js';
import { type Party, retryForeignReturns, returnHeldForeignDeposit } from './foreign-deposits.js';
import { preparePayouts } from './prepare-payouts.js';
import { refreshEscrows } from './refresh-legs.js';
import { followRelayerTransactions } from './relayer-transactions.js';
import { reportDeposit } from './report-deposit.js';
import { submitPayouts } from './submit-payouts.js';
import { retryRefusedLateReturns, sweepLateDeposits } from './sweep-late-deposits.js';
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
  /** The chains the next pass watches (null: every chain); undefined when no pass is asked for. */
  let next: Set<string> | null | undefined;
  let timer: NodeJS.Timeout | null = null;
  const subscriptions = new Map<string, NewBlockSubscription>();
  const resubscribeTimers = new Set<NodeJS.Timeout>();
  let started = false;

  /**
   * A pass, unless another server process on the database is in one (it covers this one's work).
   * Each pass logs when it held the lock (debug): replicas' passes never overlap.
   */
  async function pass(watched: Set<string> | null): Promise<void> {
    await deps.locks.tryExclusively(escrowPassLock, async () => {
      const startedAt = Date.now();
      await passAlone(watched);
      deps.logger.debug({ startedAt, endedAt: Date.now() }, 'escrow pass');
    });
  }

  /**
   * Every chain (`watched` null): the whole pass. A new block's wake-up (`watched` names its chains):
   * what a block can change — the chains' deposits and the payouts it may confirm — so a deposit
   * made deep enough is counted without waiting behind the deadline and payout steps, which the
   * timer's passes and the API's requests run as before.
   */
  async function passAlone(watched: Set<string> | null): Promise<void> {
    const touched: string[] = [];
    for (const chain of deps.chains.values()) {
      if (watched && !watched.has(chain.adapter.chain)) continue;
      const changed = await watchChain(deps, chain);
      // The escrows whose ledgers the chain changed are brought in line at once, before any other
      // step: a deposit made deep enough funds its deal first thing in the pass.
      await refreshEscrows(deps, changed);
      touched.push(...changed);
    }
    // Deployments, sweeps and wrong-token returns sent by earlier passes or requests: done, or pushed.
    const relayed = await followRelayerTransactions(deps);
    await refreshEscrows(deps, relayed);
    touched.push(...relayed);
    await sweepLateDeposits(deps, touched);
    if (watched === null) {
      await refreshEscrows(deps, await enforceDeadlines(deps));
      await preparePayouts(deps);
      await prepareTravelPayouts(deps);
      await submitPayouts(deps);
      await retryForeignReturns(deps);
      await retryRefusedLateReturns(deps);
    }
    // Money that reached a leg while its payout was on its way is returned once the leg is settled.
    await sweepLateDeposits(deps, await confirmPayouts(deps));
  }

  /**
   * Runs a pass, or, when one is running, one more right after it. Resolves when the pass that
   * covers this call is done. `chain`: a new block of that chain woke the engine, and the pass
   * watches that chain only (the rest of the pass is the same); without it, every chain.
   */
  function tick(chain?: string): Promise<void> {
    if (next === undefined || chain === undefined) next = chain === undefined ? null : new Set([chain]);
    else if (next !== null) next.add(chain);
    if (running) return running;
    running = (async () => {
      try {
        while (next !== undefined) {
          const watched = next;
          next = undefined;
          await pass(watched);
        }
      } finally {
        running = null;
      }
    })();
    return running;
  }

  function tickInBackground(chain?: string): void {
    tick(chain).catch((error: unknown) => deps.logger.error({ err: error }, 'escrow engine pass failed'));
  }

  /**
   * Follows a chain's new blocks, each one waking a pass watching that chain (through `tick`, so
   * under the same lock as every pass). A failed subscription is logged and made again after
   * `resubscribeMs`; meanwhile the timer's passes find the blocks.
   */
  function subscribe(chain: EscrowChain, resubscribeMs: number): void {
    const { adapter } = chain;
    if (!adapter.subscribeNewBlocks || !started) return;
    let failed = false;
    let subscription: NewBlockSubscription | undefined;
    subscription = adapter.subscribeNewBlocks({
      onBlock: () => {
        if (!failed) tickInBackground(adapter.chain);
      },
      onError: (error) => {
        if (failed) return;
        failed = true;
        deps.logger.warn(
          { err: error, chain: adapter.chain },
          'new-block subscription failed; polling until it is made again',
        );
        subscriptions.delete(adapter.chain);
        // Handlers run after subscribeNewBlocks returned (adapters call them from I/O callbacks).
        subscription?.stop().catch(() => {});
        const again = setTimeout(() => {
          resubscribeTimers.delete(again);
          subscribe(chain, resubscribeMs);
        }, resubscribeMs);
        again.unref();
        resubscribeTimers.add(again);
      },
    });
    if (failed) return;
    subscriptions.set(adapter.chain, subscription);
    // Blocks that arrived before the subscription was up (or while it was down) woke nothing: a
    // pass over this chain now finds them instead of the next block or the timer.
    tickInBackground(adapter.chain);
  }

  return {
    tick,
    tickInBackground,
    /**
     * Starts passes every `pollMs` (none when 0) and, on every chain whose node pushes its new
     * blocks, a pass as each block arrives (ADR 031); the timer stays as the safety net.
     */
    start(pollMs: number, options: { resubscribeMs?: number } = {}): void {
      if (pollMs <= 0 || timer || deps.chains.size === 0) return;
      started = true;
      timer = setInterval(() => tickInBackground(), pollMs);
      timer.unref();
      for (const chain of deps.chains.values()) subscribe(chain, options.resubscribeMs ?? 5_000);
    },
    /** Whether a chain's new-block subscription is up (it is down between a failure and its renewal). */
    subscribed: (chain: string) => subscriptions.has(chain),
    async stop(): Promise<void> {
      started = false;
      if (timer) clearInterval(timer);
      timer = null;
      for (const again of resubscribeTimers) clearTimeout(again);
      resubscribeTimers.clear();
      const stopping = [...subscriptions.values()].map((subscription) => subscription.stop().catch(() => {}));
      subscriptions.clear();
      await Promise.all(stopping);
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
    /** Staff: sends a wrong-token deposit held for them back to the party who sent it. */
    async returnHeldForeignDeposit(staffId: string, alertId: string, party: Party) {
      const result = await returnHeldForeignDeposit(deps, { alertId, party, staffId });
      tickInBackground();
      return result;
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
