import {
  type BitcoinNetwork,
  type Chain,
  type DealParty,
  type DealTermsHistory,
  type DealTermsVersionTerms,
  type DealWithHistory,
  isChain,
  partyAddressChains,
} from '@covenant/domain';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useEscrow } from '@/features/escrow/api/get-escrow.js';
import { partnerName } from '@/features/trading/components/partner-name.js';
import { QueryErrorState } from '@/features/trading/components/query-error-state.js';
import { ApiError } from '@/lib/api-client.js';
import { useAcceptDealTerms } from '../api/terms-accept.js';
import { useDealTerms } from '../api/terms-get.js';
import { TermsAddressesForm } from './terms-addresses-form.js';
import { TermsAgreed } from './terms-agreed.js';
import { TermsCounterForm } from './terms-counter-form.js';
import { TermsDetails } from './terms-details.js';
import { termsErrorMessage } from './terms-error-message.js';

/** Statuses in which terms and addresses may still change (the transition table's propose_terms). */
const negotiable = new Set(['draft', 'cis_submitted', 'terms_agreed']);

/** Why agreed terms offer no action once the escrow is open (the server refuses them with DEAL_NOT_ACTIVE). */
export const escrowOpenNotice =
  'The escrow is open on these terms and addresses, so they can no longer change: it pays exactly what was agreed. To trade on other terms, cancel the deal; every deposit goes back to the party that made it.';

const formatTime = (iso: string) => new Date(iso).toLocaleString();

/**
 * The negotiation of a deal's terms: the current proposal and who made it, acceptance of exactly that
 * version by the other party, counter-proposals, each party's addresses, the version history and,
 * once agreed, the agreed version with its terms hash.
 */
export function TermsPanel({ deal, viewerId }: { deal: DealWithHistory; viewerId: string | undefined }) {
  const terms = useDealTerms(deal.id);
  if (!viewerId) return null;
  return (
    <Card className="space-y-6">
      <h2 className="font-semibold text-xl">Terms</h2>
      {terms.isError ? (
        <QueryErrorState title="The terms could not be loaded." onRetry={() => void terms.refetch()} />
      ) : !terms.data ? (
        <Spinner label="Loading the terms" />
      ) : (
        <TermsNegotiation deal={deal} viewerId={viewerId} history={terms.data} />
      )}
    </Card>
  );
}

function TermsNegotiation({
  deal,
  viewerId,
  history,
}: {
  deal: DealWithHistory;
  viewerId: string;
  history: DealTermsHistory;
}) {
  const [countering, setCountering] = useState(false);
  const accept = useAcceptDealTerms(deal.id);
  // Agreed terms can still change until the escrow opens on them; the escrow panel reads the same
  // query. Until its answer is in, nothing is offered that could reopen terms an escrow may hold.
  const agreedStatus = deal.status === 'terms_agreed';
  const escrow = useEscrow(deal.id, agreedStatus);
  const noEscrow = escrow.error instanceof ApiError && escrow.error.status === 404;
  const escrowOpen = agreedStatus && escrow.data !== undefined;
  const party: DealParty = viewerId === deal.buyer_id ? 'buyer' : 'seller';
  const other: DealParty = party === 'buyer' ? 'seller' : 'buyer';
  const names = { buyer: partnerName(deal.buyer), seller: partnerName(deal.seller) };
  const nameOf = (userId: string) =>
    userId === viewerId ? 'you' : userId === deal.buyer_id ? names.buyer : names.seller;
  // Deals from before versions were kept list none: their terms are the deal's own, proposed by the buyer.
  const latest = history.versions.at(-1) ?? {
    version: deal.terms_version,
    proposed_by: deal.terms_proposed_by,
    terms: termsOfDeal(deal),
    created_at: deal.created_at,
  };
  const mine = latest.proposed_by === viewerId;
  const canChange = negotiable.has(deal.status) && (!agreedStatus || noEscrow);
  const agreed = deal.accepted_terms_version !== null && deal.terms_hash !== null;
  const canAccept = deal.status === 'cis_submitted' && !mine;

  const acceptLatest = () =>
    accept.mutate(latest.version, {
      onSuccess: () => toast.success(`Terms agreed — version ${latest.version}`),
    });

  return (
    <div className="space-y-8">
      {agreed ? (
        <TermsAgreed version={deal.accepted_terms_version ?? 0} hash={deal.terms_hash ?? ''} />
      ) : null}
      {escrowOpen ? (
        <p role="note" className="text-muted text-sm">
          {escrowOpenNotice}
        </p>
      ) : null}

      <section className="space-y-4" aria-labelledby="terms-current-heading">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="terms-current-heading" className="font-medium">
            Current proposal — version {latest.version}
          </h3>
          <p className="text-muted text-sm">
            Proposed by {nameOf(latest.proposed_by)} · {formatTime(latest.created_at)}
          </p>
        </div>
        <TermsDetails terms={latest.terms} />
        {!agreed && canChange ? (
          <p className="text-muted text-sm">
            {mine
              ? `Waiting for ${names[other]} to accept version ${latest.version} or counter-propose.`
              : deal.status === 'draft'
                ? 'You can accept once both CIS are approved.'
                : `Accept version ${latest.version} as shown, or counter-propose.`}
          </p>
        ) : null}
        {canAccept && !agreed && (!deal.addresses.buyer || !deal.addresses.seller) ? (
          <p className="text-muted text-sm">
            Both parties’ payout and refund addresses are needed before the terms can be accepted.
          </p>
        ) : null}
        {accept.isError ? (
          <p role="alert" className="text-destructive text-sm">
            {termsErrorMessage(accept.error, names)}
          </p>
        ) : null}
        {/* Deals with an open escrow, funded or closed keep their terms: no action is offered at all. */}
        {canChange ? (
          <div className="flex flex-wrap gap-2">
            {!mine && !agreed ? (
              <Button disabled={!canAccept || accept.isPending} onClick={acceptLatest}>
                {accept.isPending ? 'Accepting...' : `Accept version ${latest.version}`}
              </Button>
            ) : null}
            {!countering ? (
              <Button variant="outline" disabled={!canChange} onClick={() => setCountering(true)}>
                {mine ? 'Revise proposal' : 'Counter-propose'}
              </Button>
            ) : null}
          </div>
        ) : null}
        {countering && canChange ? (
          <TermsCounterForm
            dealId={deal.id}
            current={latest.terms}
            names={names}
            onDone={() => setCountering(false)}
          />
        ) : null}
      </section>

      <PartyAddresses
        deal={deal}
        party={party}
        other={other}
        names={names}
        canEdit={canChange}
        bitcoinNetwork={history.bitcoin_network}
      />

      <section className="space-y-3" aria-labelledby="terms-history-heading">
        <h3 id="terms-history-heading" className="font-medium">
          Version history
        </h3>
        <ol className="space-y-3" aria-label="Terms versions">
          {[...history.versions].reverse().map((version) => (
            <li key={version.version} className="border-border border-l-2 pl-3">
              <details>
                <summary className="cursor-pointer text-sm">
                  <span className="font-medium">Version {version.version}</span>
                  <span className="text-muted">
                    {' '}
                    · {nameOf(version.proposed_by)} · {formatTime(version.created_at)}
                    {version.version === history.accepted_version ? ' · agreed' : ''}
                  </span>
                </summary>
                <div className="pt-3">
                  <TermsDetails terms={version.terms} />
                </div>
              </details>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

function PartyAddresses({
  deal,
  party,
  other,
  names,
  canEdit,
  bitcoinNetwork,
}: {
  deal: DealWithHistory;
  party: DealParty;
  other: DealParty;
  names: { buyer: string; seller: string };
  canEdit: boolean;
  bitcoinNetwork: BitcoinNetwork;
}) {
  if (!isChain(deal.asset_chain) || !isChain(deal.stable_chain)) return null;
  const chains: { asset_chain: Chain; stable_chain: Chain } = {
    asset_chain: deal.asset_chain,
    stable_chain: deal.stable_chain,
  };
  const theirs = deal.addresses[other];
  const theirChains = partyAddressChains(other, chains);
  return (
    <div className="grid gap-8 md:grid-cols-2">
      <section className="space-y-3" aria-labelledby="terms-your-addresses-heading">
        <h3 id="terms-your-addresses-heading" className="font-medium">
          Your addresses
        </h3>
        <TermsAddressesForm
          // A change of chains starts the form afresh from what is stored.
          key={`${deal.asset_chain}-${deal.stable_chain}`}
          dealId={deal.id}
          party={party}
          chains={chains}
          stored={deal.addresses[party]}
          bitcoinNetwork={bitcoinNetwork}
          canEdit={canEdit}
          names={names}
        />
      </section>
      <section className="space-y-3" aria-labelledby="terms-their-addresses-heading">
        <h3 id="terms-their-addresses-heading" className="font-medium">
          {names[other]}'s addresses
        </h3>
        {theirs ? (
          <dl className="space-y-3">
            <div className="space-y-1">
              <dt className="text-muted text-xs uppercase tracking-wide">Payout ({theirChains.payout})</dt>
              <dd className="break-all font-mono text-sm">{theirs.payout_address}</dd>
            </div>
            <div className="space-y-1">
              <dt className="text-muted text-xs uppercase tracking-wide">Refund ({theirChains.refund})</dt>
              <dd className="break-all font-mono text-sm">{theirs.refund_address}</dd>
            </div>
          </dl>
        ) : (
          <p className="text-muted text-sm">{names[other]} has not set addresses yet.</p>
        )}
      </section>
    </div>
  );
}

function termsOfDeal(deal: DealWithHistory): DealTermsVersionTerms {
  return {
    asset_chain: deal.asset_chain,
    asset_symbol: deal.asset_symbol,
    asset_amount: deal.asset_amount,
    stable_chain: deal.stable_chain,
    stable_symbol: deal.stable_symbol,
    stable_amount: deal.stable_amount,
    meeting_required: deal.meeting_required,
    travel_location: deal.travel_location,
    ...(deal.meeting ? { meeting: deal.meeting } : {}),
    funding_deadline_hours: deal.funding_deadline_hours,
  };
}
