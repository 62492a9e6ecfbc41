import type { DealWithHistory, Dispute } from '@covenant/domain';
import { formatDisputeAmount } from './dispute-amount.js';

const decisionLabels: Record<NonNullable<Dispute['decision']>, string> = {
  release: 'Released per the terms',
  refund: 'Both deposits refunded',
  split: 'Split by the mediator',
};

/** A decided dispute: the decision, what each party receives of each leg, and the mediator's rationale. */
export function DisputeOutcome({ deal, dispute }: { deal: DealWithHistory; dispute: Dispute }) {
  const legs = [
    { name: 'Asset', symbol: deal.asset_symbol, total: deal.asset_amount, amounts: dispute.amounts?.asset },
    {
      name: 'Stable',
      symbol: deal.stable_symbol,
      total: deal.stable_amount,
      amounts: dispute.amounts?.stable,
    },
  ];
  return (
    <div className="space-y-3">
      <p className="font-medium">Decision: {dispute.decision ? decisionLabels[dispute.decision] : '—'}</p>
      {dispute.effect === 'deal_cancelled' && (
        <p className="text-sm">
          The decision cancelled the deal: it was disputed before its escrow opened, so nothing was deposited
          and no money moved.
        </p>
      )}
      {dispute.amounts && (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Amounts per leg</caption>
          <thead className="text-muted">
            <tr>
              <th scope="col" className="py-1 font-normal">
                Leg
              </th>
              <th scope="col" className="py-1 font-normal">
                To the buyer
              </th>
              <th scope="col" className="py-1 font-normal">
                To the seller
              </th>
            </tr>
          </thead>
          <tbody>
            {legs.map((leg) => (
              <tr key={leg.name}>
                <th scope="row" className="py-1 font-normal">
                  {leg.name} ({formatDisputeAmount(leg.total, leg.symbol)})
                </th>
                <td className="py-1">{formatDisputeAmount(leg.amounts?.buyer ?? '0', leg.symbol)}</td>
                <td className="py-1">{formatDisputeAmount(leg.amounts?.seller ?? '0', leg.symbol)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div>
        <h4 className="text-muted text-xs uppercase tracking-wide">Rationale</h4>
        <p className="whitespace-pre-line text-sm">{dispute.rationale}</p>
      </div>
      {dispute.decided_at && (
        <p className="text-muted text-xs">Decided {new Date(dispute.decided_at).toLocaleString()}</p>
      )}
    </div>
  );
}
