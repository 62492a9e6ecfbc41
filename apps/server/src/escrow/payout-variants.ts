import type { DepositOutput, PayoutApprover, SettlementPlan, UnsignedPayout } from '@covenant/escrow';
import type { EscrowChain } from './escrow-chains.js';
import { type LegRow, type PayoutRow, payableLegOf } from './escrow-rows.js';

/**
 * Where a payout whose transaction names its approver (`payoutNamesApprover`: Solana) keeps one
 * version per party that may approve it, inside its signing payload: `{ buyer: {payout_ref,
 * signing_payload}, seller: … }`. The payload's own fields are the first party's version.
 */
const variantsKey = 'approver_variants';

type Variant = { payout_ref: string; signing_payload: Record<string, unknown> };

/** What is stored of a payout: its reference and signing payload, with a version per approver where the chain needs it. */
export async function buildStoredPayout(
  chain: Pick<EscrowChain, 'adapter'>,
  row: LegRow,
  plan: SettlementPlan,
  deposits: readonly DepositOutput[],
  approvers: readonly PayoutApprover[],
): Promise<{ payoutRef: string; signingPayload: Record<string, unknown> }> {
  const leg = payableLegOf(row);
  if (!chain.adapter.payoutNamesApprover) {
    const unsigned = await chain.adapter.buildPayout(leg, plan, deposits);
    return {
      payoutRef: unsigned.payoutRef,
      signingPayload: unsigned.signingPayload as Record<string, unknown>,
    };
  }
  const variants: Partial<Record<PayoutApprover, Variant>> = {};
  let first: UnsignedPayout | undefined;
  for (const approver of approvers) {
    const unsigned = await chain.adapter.buildPayout({ ...leg, approver }, plan, deposits);
    first ??= unsigned;
    variants[approver] = {
      payout_ref: unsigned.payoutRef,
      signing_payload: unsigned.signingPayload as Record<string, unknown>,
    };
  }
  if (!first) throw new Error('a payout needs at least one party to approve it');
  return {
    payoutRef: first.payoutRef,
    signingPayload: { ...(first.signingPayload as Record<string, unknown>), [variantsKey]: variants },
  };
}

/**
 * The payout as the adapter takes it, in `approver`'s version where it has one per party (without
 * the versions of the others); the payout as stored otherwise.
 */
export function unsignedPayoutOf(payout: PayoutRow, approver?: PayoutApprover): UnsignedPayout {
  const stored = payout.signingPayload as Record<string, unknown>;
  const variants = stored[variantsKey] as Partial<Record<PayoutApprover, Variant>> | undefined;
  const variant = approver ? variants?.[approver] : undefined;
  const { [variantsKey]: _versions, ...payload } = stored;
  return {
    chain: payout.chain as UnsignedPayout['chain'],
    escrowId: payout.escrowId,
    leg: payout.leg,
    payoutRef: variant?.payout_ref ?? payout.payoutRef,
    signingPayload: variant?.signing_payload ?? (variants ? payload : payout.signingPayload),
  };
}

/** The plan as stored with the payout, with the deposit outputs it spends (what a later payout of the leg must not). */
export function planJson(
  plan: SettlementPlan,
  deposits: readonly DepositOutput[] = [],
): Record<string, unknown> {
  return {
    outcome: plan.outcome,
    transfers: plan.transfers.map((transfer) => ({ ...transfer, amount: transfer.amount.toString() })),
    travel_charge: plan.travelCharge.toString(),
    deposits: deposits.map((deposit) => ({ ...deposit, amount: deposit.amount.toString() })),
  };
}
