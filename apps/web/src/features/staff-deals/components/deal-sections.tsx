import type { StaffDealView } from '@covenant/domain';
import { ExternalLink, ShieldAlert, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { RecordFields, RecordSection } from '@/components/record-sections.js';
import { type ChainView, transactionUrlOf } from '@/features/escrow/api/get-chains.js';
import { formatUtcTime } from '@/features/staff/components/format-utc-time.js';
import { AlertDetails } from '@/features/staff-alerts/components/alert-details.js';
import { describeAlertKind } from '@/features/staff-alerts/components/describe-alert-kind.js';
import { formatTokenAmount } from '@/features/staff-disputes/components/token-amount.js';

type Leg = NonNullable<StaffDealView['escrow']>['legs'][number];
type Party = StaffDealView['parties']['buyer'];

const legTitles = { asset: 'Asset leg', stable: 'Stablecoin leg' } as const;
const time = (iso: string | null) => (iso ? formatUtcTime(iso) : '—');

/** A table that scrolls sideways on a narrow screen rather than pushing the page wider. */
function Table({ caption, headers, children }: { caption: string; headers: string[]; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-md border border-border">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-surface-raised text-muted">
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className="whitespace-nowrap p-2 font-normal">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">{children}</tbody>
      </table>
    </div>
  );
}

/** A transaction hash, linked to the chain's explorer when the server names one. */
export function TransactionLink({
  chains,
  chain,
  hash,
}: {
  chains: readonly ChainView[];
  chain: string;
  hash: string;
}) {
  const url = transactionUrlOf(chains, chain, hash);
  if (!url) return <code className="break-all font-mono text-xs">{hash}</code>;
  return (
    <a
      href={url}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 break-all font-mono text-primary text-xs underline-offset-4 hover:underline"
    >
      {hash}
      <ExternalLink className="size-3 shrink-0" aria-hidden />
      <span className="sr-only">(opens the {chain} explorer)</span>
    </a>
  );
}

function partyText(party: Party): string {
  return `${party.email}${party.username ? ` (@${party.username})` : ''}`;
}

export function DealTerms({ view }: { view: StaffDealView }) {
  const { deal } = view;
  return (
    <RecordSection title="Terms">
      <RecordFields
        rows={[
          [
            'Deal ID',
            <code key="id" className="font-mono">
              {deal.id}
            </code>,
          ],
          ['Status', deal.status.replaceAll('_', ' ')],
          [
            'Asset (seller deposits)',
            `${formatTokenAmount(deal.asset_amount, deal.asset_symbol)} on ${deal.asset_chain}`,
          ],
          [
            'Stable (buyer deposits)',
            `${formatTokenAmount(deal.stable_amount, deal.stable_symbol)} on ${deal.stable_chain}`,
          ],
          [
            'Meeting',
            deal.meeting_required ? `Yes${deal.travel_location ? `, ${deal.travel_location}` : ''}` : 'No',
          ],
          ['Funding deadline', `${deal.funding_deadline_hours} hours from agreement`],
          [
            'Terms version',
            deal.accepted_terms_version === null
              ? `${deal.terms_version} proposed, none agreed`
              : `${deal.accepted_terms_version} agreed ${time(deal.terms_agreed_at)}`,
          ],
          ['Terms hash', deal.terms_hash ?? '—'],
          ['Created', time(deal.created_at)],
        ]}
      />
    </RecordSection>
  );
}

export function DealParties({ view }: { view: StaffDealView }) {
  const addressesOf = (party: 'buyer' | 'seller') => view.addresses.find((entry) => entry.party === party);
  return (
    <RecordSection title="Parties">
      <div className="grid gap-6 md:grid-cols-2">
        {(['buyer', 'seller'] as const).map((side) => {
          const party = view.parties[side];
          const addresses = addressesOf(side);
          return (
            <div key={side} className="min-w-0 space-y-2">
              <h3 className="font-medium capitalize">{side}</h3>
              <RecordFields
                rows={[
                  ['E-mail', party.email || '—'],
                  ['Username', party.username ? `@${party.username}` : '—'],
                  [
                    'User ID',
                    <code key="id" className="font-mono text-xs">
                      {party.id}
                    </code>,
                  ],
                  ['Payout address', addresses?.payout_address ?? 'Not given yet'],
                  ['Refund address', addresses?.refund_address ?? 'Not given yet'],
                ]}
              />
            </div>
          );
        })}
      </div>
    </RecordSection>
  );
}

function LegMovements({ leg, chains }: { leg: Leg; chains: readonly ChainView[] }) {
  if (leg.movements.length === 0) return <p className="text-muted text-sm">Nothing moved on this leg yet.</p>;
  return (
    <Table
      caption={`On-chain movements of the ${legTitles[leg.leg].toLowerCase()}`}
      headers={[
        'When (UTC)',
        'Kind',
        'Amount',
        'Transaction',
        'Counterparty address',
        'Confirmations',
        'Status',
      ]}
    >
      {leg.movements.map((movement) => (
        <tr key={`${movement.transaction_hash}:${movement.kind}:${movement.created_at}`}>
          <td className="whitespace-nowrap p-2">{time(movement.created_at)}</td>
          <td className="p-2">{movement.kind.replaceAll('_', ' ')}</td>
          <td className="whitespace-nowrap p-2">{formatTokenAmount(movement.amount, leg.symbol)}</td>
          <td className="min-w-48 p-2">
            <TransactionLink chains={chains} chain={leg.chain} hash={movement.transaction_hash} />
          </td>
          <td className="min-w-48 break-all p-2 font-mono text-xs">{movement.counterparty_address ?? '—'}</td>
          <td className="p-2">{movement.confirmations}</td>
          <td className="p-2">{movement.status}</td>
        </tr>
      ))}
    </Table>
  );
}

export function DealEscrow({ view, chains }: { view: StaffDealView; chains: readonly ChainView[] }) {
  const { escrow } = view;
  return (
    <RecordSection title="Escrow">
      {!escrow ? (
        <p className="text-muted text-sm">The escrow is not opened yet: nothing was deposited.</p>
      ) : (
        <>
          <RecordFields
            rows={[
              [
                'Escrow ID',
                <code key="id" className="font-mono">
                  {escrow.id}
                </code>,
              ],
              ['Status', escrow.status.replaceAll('_', ' ')],
            ]}
          />
          {escrow.legs.map((leg) => (
            <section
              key={leg.leg}
              aria-labelledby={`staff-deal-leg-${leg.leg}`}
              className="min-w-0 space-y-3 rounded-md border border-border p-4"
            >
              <h3 id={`staff-deal-leg-${leg.leg}`} className="font-medium">
                {legTitles[leg.leg]} — {leg.symbol} on {leg.chain}
              </h3>
              <RecordFields
                rows={[
                  ['State', leg.state.replaceAll('_', ' ')],
                  ['Required', formatTokenAmount(leg.required_amount, leg.symbol)],
                  ['Deposit address', leg.deposit_address],
                  ['Depositor refund address', leg.depositor_refund_address],
                  ['Receiver payout address', leg.receiver_payout_address],
                  ['Token', leg.token_address ?? 'native'],
                  ['Deadline', time(leg.deadline)],
                ]}
              />
              <LegMovements leg={leg} chains={chains} />
            </section>
          ))}
        </>
      )}
    </RecordSection>
  );
}

export function DealPayouts({ view, chains }: { view: StaffDealView; chains: readonly ChainView[] }) {
  return (
    <RecordSection title="Payouts">
      {view.payouts.length === 0 ? (
        <p className="text-muted text-sm">No payout has been started.</p>
      ) : (
        <Table
          caption="Payouts of the escrow, oldest first"
          headers={['Created (UTC)', 'Leg', 'Kind', 'Source', 'Status', 'Transaction', 'Confirmed (UTC)']}
        >
          {view.payouts.map((payout) => (
            <tr key={payout.id}>
              <td className="whitespace-nowrap p-2">{time(payout.created_at)}</td>
              <td className="p-2">{payout.leg}</td>
              <td className="p-2">{payout.kind.replaceAll('_', ' ')}</td>
              <td className="p-2">{payout.source.replaceAll('_', ' ')}</td>
              <td className="p-2">
                {payout.status}
                {payout.error ? <span className="block text-destructive text-xs">{payout.error}</span> : null}
              </td>
              <td className="min-w-48 p-2">
                {payout.transaction_hash ? (
                  <TransactionLink chains={chains} chain={payout.chain} hash={payout.transaction_hash} />
                ) : (
                  '—'
                )}
              </td>
              <td className="whitespace-nowrap p-2">{time(payout.confirmed_at)}</td>
            </tr>
          ))}
        </Table>
      )}
    </RecordSection>
  );
}

/** Who an actor id is on this deal: a party's e-mail address, or the id (staff, the system). */
function actorText(view: StaffDealView, actorId: string | null): string {
  if (!actorId) return 'system';
  if (actorId === view.parties.buyer.id) return `${partyText(view.parties.buyer)}, buyer`;
  if (actorId === view.parties.seller.id) return `${partyText(view.parties.seller)}, seller`;
  return actorId;
}

export function DealAudit({ view }: { view: StaffDealView }) {
  const { audit } = view;
  return (
    <RecordSection title="Audit trail">
      {audit.verified ? (
        <p className="flex items-center gap-2 font-medium text-primary">
          <ShieldCheck className="size-5 shrink-0" aria-hidden />
          Verified — {audit.entries.length} {audit.entries.length === 1 ? 'entry' : 'entries'}, chain intact
        </p>
      ) : (
        <p role="alert" className="flex items-center gap-2 font-medium text-destructive">
          <ShieldAlert className="size-5 shrink-0" aria-hidden />
          Verification failed at entry {audit.broken_at_seq}: the record was changed after it was written.
        </p>
      )}
      <Table
        caption="Audit trail entries, oldest first"
        headers={['#', 'When (UTC)', 'Action', 'By', 'Details']}
      >
        {audit.entries.map((entry) => (
          <tr key={entry.seq} className={entry.seq === audit.broken_at_seq ? 'bg-destructive/10' : undefined}>
            <td className="p-2">{entry.seq}</td>
            <td className="whitespace-nowrap p-2">{time(entry.created_at)}</td>
            <td className="whitespace-nowrap p-2">{entry.action.replaceAll('_', ' ')}</td>
            <td className="min-w-40 break-all p-2">{actorText(view, entry.actor_id)}</td>
            <td className="min-w-56 break-all p-2 font-mono text-xs">
              {Object.keys(entry.payload).length > 0 ? JSON.stringify(entry.payload) : '—'}
            </td>
          </tr>
        ))}
      </Table>
    </RecordSection>
  );
}

export function DealAlerts({ view }: { view: StaffDealView }) {
  return (
    <RecordSection title="Alerts">
      {view.alerts.length === 0 ? (
        <p className="text-muted text-sm">No alert about this deal or its escrow.</p>
      ) : (
        <ul className="space-y-3" aria-label="Alerts about this deal">
          {view.alerts.map((alert) => (
            <li key={alert.id} className="min-w-0 space-y-2 rounded-md border border-border p-4">
              <h3 className="font-medium">{describeAlertKind(alert.kind)}</h3>
              <p className="text-muted text-xs">
                Raised {time(alert.created_at)} ·{' '}
                {alert.resolved_at
                  ? `resolved ${time(alert.resolved_at)}${alert.resolved_by ? ` by ${alert.resolved_by}` : ''}`
                  : 'open'}
              </p>
              <p className="text-sm">{alert.message}</p>
              <AlertDetails details={alert.details} />
            </li>
          ))}
        </ul>
      )}
    </RecordSection>
  );
}
