import { tierLabels } from '@covenant/domain';
import { BadgeCheck, Clock, KeyRound, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { useAuth } from '@/lib/auth.js';
import type { Profile } from '../api/get-profile.js';
import { Badge, badgeVariants } from './badge.js';
import { QueryErrorState } from './query-error-state.js';

type TradingHeroProps = { profile: Profile | undefined; failed: boolean; onRetry: () => void };

export function TradingHero({ profile, failed, onRetry }: TradingHeroProps) {
  const { user } = useAuth();
  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="font-semibold text-3xl tracking-tight">Trading</h1>
          <p className="mt-2 text-muted">
            Signed in as <span className="font-medium text-foreground">{user?.email}</span>. Create deals with
            verified partners and follow them through escrow to settlement.
          </p>
        </div>
        <Button asChild variant="outline" size="sm">
          <Link to={paths.apiKeys}>
            <KeyRound aria-hidden />
            Get API Key
          </Link>
        </Button>
      </div>
      {failed ? (
        <QueryErrorState title="Your profile could not be loaded." onRetry={onRetry} />
      ) : !profile ? (
        <Spinner label="Loading your profile" />
      ) : (
        <ul aria-label="Account status" className="flex flex-wrap gap-2">
          <li>
            {profile.verification_status === 'verified' ? (
              <Badge tone="success">
                <BadgeCheck aria-hidden />
                Verified
              </Badge>
            ) : (
              <Link to={paths.kyc} className={badgeVariants({ tone: 'warning' })}>
                <Clock aria-hidden />
                Verification Pending
              </Link>
            )}
          </li>
          <li>
            <Badge>{tierLabels[profile.trading_tier]} Tier</Badge>
          </li>
          {profile.kyc_completed && (
            <li>
              <Badge tone="success">
                <ShieldCheck aria-hidden />
                KYC Complete
              </Badge>
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
