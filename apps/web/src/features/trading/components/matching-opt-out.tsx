import { LoadError } from '@/components/load-error.js';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useProfile } from '../api/get-profile.js';
import { useUpdateMatchingOptOut } from '../api/update-matching-opt-out.js';

/** Whether other traders see the caller among their suggested counterparties. */
export function MatchingOptOut() {
  const profile = useProfile();
  const update = useUpdateMatchingOptOut();
  return (
    <section aria-labelledby="matching-heading">
      <Card className="space-y-4">
        <div className="space-y-1">
          <h2 id="matching-heading" className="font-semibold text-lg">
            Counterparty suggestions
          </h2>
          <p className="text-muted text-sm">
            Verified traders with a Customer Information Sheet see counterparties whose sheet fits theirs.
            They see your username, tier and what your sheets have in common, never your sheet itself.
          </p>
        </div>
        {profile.isError ? (
          <LoadError onRetry={() => void profile.refetch()}>Your profile could not be loaded.</LoadError>
        ) : !profile.data ? (
          <Spinner label="Loading your profile" />
        ) : (
          <div className="space-y-2">
            <div className="flex items-start gap-3">
              <input
                id="matching-suggest-me"
                type="checkbox"
                className="mt-0.5 size-4 shrink-0 accent-primary"
                checked={!profile.data.matching_opt_out}
                disabled={update.isPending}
                onChange={(event) => update.mutate(!event.target.checked)}
              />
              <label htmlFor="matching-suggest-me" className="text-sm">
                Suggest me to other traders as a counterparty
              </label>
            </div>
            {update.isError ? (
              <p role="alert" className="text-destructive text-sm">
                The setting could not be saved: {update.error.message}
              </p>
            ) : update.isSuccess ? (
              <p role="status" className="text-muted text-sm">
                {update.data.matching_opt_out
                  ? 'Saved: you are no longer suggested to other traders.'
                  : 'Saved: other traders may see you among their suggestions.'}
              </p>
            ) : null}
          </div>
        )}
      </Card>
    </section>
  );
}
