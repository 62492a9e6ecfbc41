import { tierLabels } from '@covenant/domain';
import { BadgeCheck, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import type { PartnerMatch, PartnerMatches } from '../api/get-partner-matches.js';
import { Badge } from './badge.js';
import { partnerName } from './partner-name.js';
import { QueryErrorState } from './query-error-state.js';

type SuggestedCounterpartiesProps = {
  matches: PartnerMatches | undefined;
  failed: boolean;
  onRetry: () => void;
  onSelect: (partner: PartnerMatch) => void;
  onOpenCis: () => void;
  // The caller is hidden from other traders' suggestions.
  optedOut: boolean;
};

/** "Suggested counterparties": traders whose CIS fits the caller's, best first, each with why. */
export function SuggestedCounterparties({
  matches,
  failed,
  onRetry,
  onSelect,
  onOpenCis,
  optedOut,
}: SuggestedCounterpartiesProps) {
  return (
    <section aria-labelledby="suggested-heading" className="space-y-4">
      <div className="space-y-1">
        <h2 id="suggested-heading" className="flex items-center gap-2 font-semibold text-lg">
          <Sparkles className="size-4 text-primary" aria-hidden />
          Suggested counterparties
        </h2>
        <p className="text-muted text-sm">
          Ranked by how well their Customer Information Sheet fits your newest one. You see only what you have
          in common; their sheet stays private until both of you attach it to a deal.
        </p>
        {optedOut ? (
          <p className="text-muted text-sm">
            You are not suggested to other traders.{' '}
            <Link to={paths.matchingSettings} className="text-primary hover:underline">
              Change this in your settings
            </Link>
            .
          </p>
        ) : null}
      </div>
      {failed ? (
        <QueryErrorState title="Suggestions could not be loaded." onRetry={onRetry} />
      ) : !matches ? (
        <Spinner label="Loading suggestions" />
      ) : matches.status !== 'ready' ? (
        <div className="space-y-3 py-4 text-center">
          <p className="text-muted">{matches.message}</p>
          {matches.status === 'cis_required' ? (
            <Button variant="outline" size="sm" onClick={onOpenCis}>
              Upload a CIS
            </Button>
          ) : null}
        </div>
      ) : matches.data.length === 0 ? (
        <p className="py-4 text-center text-muted">No counterparty fits your sheet yet.</p>
      ) : (
        <ul className="space-y-3">
          {matches.data.map((match) => (
            <li key={match.id}>
              <Card className="space-y-3 p-4" data-testid="suggestion-card">
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <div className="space-y-1">
                    <p className="font-medium">{partnerName(match)}</p>
                    <div className="flex items-center gap-2">
                      <Badge>{tierLabels[match.trading_tier]} Tier</Badge>
                      <Badge tone="success">
                        <BadgeCheck aria-hidden />
                        Verified
                      </Badge>
                      <Badge tone="success">Fit {match.score}/100</Badge>
                    </div>
                  </div>
                  <Button size="sm" onClick={() => onSelect(match)}>
                    Select Partner
                  </Button>
                </div>
                <ul className="list-disc space-y-0.5 pl-5 text-muted text-sm" aria-label="Why">
                  {match.reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
