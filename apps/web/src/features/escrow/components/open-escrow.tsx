import type { DealWithHistory } from '@covenant/domain';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { ApiError } from '@/lib/api-client.js';
import { useCreateEscrow } from '../api/create-escrow.js';

/**
 * Agreed terms, no escrow yet: either party opens it, which fixes one deposit address per leg. The
 * server refuses while a party has no escrow key; its message says which, with a way to set one up.
 */
export function OpenEscrow({ deal }: { deal: DealWithHistory }) {
  const create = useCreateEscrow(deal.id);
  const error = create.error;
  const needsKey = error instanceof ApiError && error.status === 409 && /escrow key/i.test(error.message);
  const travelRule = error instanceof ApiError && error.code === 'TRAVEL_RULE_INCOMPLETE';
  return (
    <div className="space-y-3">
      <p className="text-muted text-sm">
        The terms are agreed. Opening the escrow gives each leg its own deposit address: the seller deposits{' '}
        {deal.asset_symbol}, the buyer deposits {deal.stable_symbol}. Funds leave the escrow only with two of
        three keys — yours, your counterparty’s and Covenant’s — so no one can move them alone.
      </p>
      <Button disabled={create.isPending} onClick={() => create.mutate()}>
        {create.isPending ? 'Opening…' : 'Open escrow'}
      </Button>
      {error ? (
        <div role="alert" className="space-y-1 text-destructive text-sm">
          <p>{error.message}</p>
          {needsKey ? (
            <p>
              <Link to={paths.escrowKey} className="text-primary underline underline-offset-4">
                Set up your escrow key
              </Link>
            </p>
          ) : null}
          {travelRule ? (
            <p>
              <Link to={paths.kyc} className="text-primary underline underline-offset-4">
                Complete your KYC record
              </Link>
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
