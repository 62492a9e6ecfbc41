import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { Link, Outlet } from 'react-router';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Button } from '@/components/ui/button.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { useAuth } from '@/lib/auth.js';
import { useAssuranceLevel } from '../api/assurance-level.js';
import { useMfaFactors } from '../api/mfa-factors.js';
import { verifyTotpCode } from '../api/verify-totp-code.js';
import { TotpCodeForm } from './totp-code-form.js';

const staffRoles = ['mediator', 'compliance', 'admin', 'concierge'];

/** The staff roles the server put into the session's user (app_metadata.roles); the API checks them again. */
export function useStaffRoles(): string[] {
  const { user } = useAuth();
  const roles: unknown = user?.app_metadata.roles;
  return Array.isArray(roles) ? roles.filter((role): role is string => staffRoles.includes(role)) : [];
}

/**
 * In front of every `/staff` page: traders get a 403 page; staff whose session has not passed a
 * second factor enter a code first (or are sent to set one up), since the staff API answers 403 to
 * an aal1 session. The page itself still checks its own role.
 */
export function StaffGate() {
  const roles = useStaffRoles();
  const level = useAssuranceLevel();

  if (roles.length === 0) return <StaffOnly />;
  if (level.currentLevel === 'aal2') return <Outlet />;
  if (level.nextLevel === 'aal2') return <VerifyItsYou />;
  return <SetUpTwoFactor />;
}

function StaffOnly() {
  return (
    <div className="mx-auto max-w-xl space-y-4 px-4 py-24 text-center">
      <PageTitle title="Staff only" />
      <ShieldAlert className="mx-auto size-10 text-destructive" aria-hidden />
      <h1 className="font-semibold text-2xl">403 — Staff only</h1>
      <p className="text-muted">
        This page is for Covenant staff: mediators, compliance officers and administrators. If you need help,
        write to our support team.
      </p>
      <Button asChild variant="outline">
        <Link to={paths.contact}>Contact Support</Link>
      </Button>
    </div>
  );
}

function VerifyItsYou() {
  const { mfa } = useAuth();
  const factors = useMfaFactors();
  const factor = factors.data?.find((candidate) => candidate.status === 'verified');
  return (
    <div className="mx-auto max-w-md space-y-4 px-4 py-24">
      <PageTitle title="Verify it's you" />
      <ShieldCheck className="size-10 text-primary" aria-hidden />
      <h1 className="font-semibold text-2xl">Verify it's you</h1>
      <p className="text-muted">
        Staff pages need a second factor. Enter the 6-digit code from your authenticator app.
      </p>
      {factors.isPending ? (
        <Spinner label="Loading your authenticators" />
      ) : factor ? (
        <TotpCodeForm submitLabel="Verify" onSubmit={(code) => verifyTotpCode(mfa, factor.id, code)} />
      ) : (
        <LoadError onRetry={() => void factors.refetch()}>Your authenticator could not be loaded.</LoadError>
      )}
    </div>
  );
}

function SetUpTwoFactor() {
  return (
    <div className="mx-auto max-w-md space-y-4 px-4 py-24">
      <PageTitle title="Two-factor authentication required" />
      <ShieldAlert className="size-10 text-destructive" aria-hidden />
      <h1 className="font-semibold text-2xl">Two-factor authentication required</h1>
      <p className="text-muted">
        Staff pages open only in a session confirmed with a code from an authenticator app. Set one up in your
        security settings, then come back.
      </p>
      <Button asChild>
        <Link to={paths.accountSecurity}>Set up two-factor authentication</Link>
      </Button>
    </div>
  );
}
