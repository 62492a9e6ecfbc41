import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { useAuth } from '@/lib/auth.js';

// Only signed-in users need the account menu, the notifications and Sign Out: loaded on demand, so
// the public pages' first load carries none of it.
const SignedInActions = lazy(() =>
  import('./signed-in-actions.js').then((module) => ({ default: module.SignedInActions })),
);

// The header's account corner: a loading state until the first session is known, then either the
// way in (Sign In, Get Started) or the signed-in user's e-mail (opening the account menu) with Sign Out.
export function AccountActions({ onNavigate }: { onNavigate?: () => void }) {
  const { user, loading } = useAuth();

  if (loading) return <Spinner label="Checking your session" />;

  if (user) {
    return (
      <Suspense fallback={<span className="truncate text-muted text-sm">{user.email}</span>}>
        <SignedInActions user={user} onNavigate={onNavigate} />
      </Suspense>
    );
  }

  // Hidden by the stylesheet while a pre-rendered page's session hint says a session is stored.
  return (
    <span data-signed-out-actions className="contents">
      <Button asChild variant="ghost" size="sm">
        <Link to={paths.auth} onClick={onNavigate}>
          Sign In
        </Link>
      </Button>
      <Button asChild size="sm">
        <Link to={paths.auth} onClick={onNavigate}>
          Get Started
        </Link>
      </Button>
    </span>
  );
}
