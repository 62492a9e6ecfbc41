import { PageTitle } from '@/components/page-title.js';
import { MatchingOptOut } from '../components/matching-opt-out.js';

/** `/settings/matching`: whether the trader is suggested to others as a counterparty. */
export function MatchingSettingsRoute() {
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Matching" />
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Matching</h1>
        <p className="mt-2 text-muted">Who may find you through the suggested counterparties.</p>
      </div>
      <MatchingOptOut />
    </div>
  );
}
