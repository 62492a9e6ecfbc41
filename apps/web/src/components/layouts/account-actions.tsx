import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { useAuth } from '@/lib/auth.js';

// The header's account corner: a loading state until the first session is known, then either the
// way in (Sign In, Get Started) or the signed-in user's e-mail with Sign Out.
export function AccountActions({ onNavigate }: { onNavigate?: () => void }) {
  const { user, loading, signOut } = useAuth();

  if (loading) return <Spinner label="Checking your session" />;

  if (user) {
    const handleSignOut = async () => {
      onNavigate?.();
      const { error } = await signOut();
      if (!error) return;
      // Imported here so the toast library stays out of the JavaScript every page loads first.
      const { toast } = await import('sonner');
      toast.error('Sign Out Failed', { description: error.message });
    };
    return (
      <>
        <span className="min-w-0 truncate text-muted text-sm" title={user.email}>
          {user.email}
        </span>
        <Button variant="outline" size="sm" onClick={handleSignOut}>
          Sign Out
        </Button>
      </>
    );
  }

  return (
    <>
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
    </>
  );
}
