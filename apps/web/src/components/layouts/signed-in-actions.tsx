import type { User } from '@supabase/auth-js';
import { lazy, Suspense, useRef } from 'react';
import { Link } from 'react-router';
import { QueryScope } from '@/app/query-scope.js';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { useAuth } from '@/lib/auth.js';

// Loaded after the account corner itself, so the bell adds nothing to the signed-in header's first paint.
const NotificationsBell = lazy(() =>
  import('@/features/notifications/components/notifications-bell.js').then((module) => ({
    default: module.NotificationsBell,
  })),
);

/**
 * The signed-in user's corner of the header: notifications, the account menu under their e-mail,
 * and Sign Out. A module of its own, loaded only once someone is signed in, so none of it weighs on
 * the first load of the public pages.
 */
export function SignedInActions({ user, onNavigate }: { user: User; onNavigate?: () => void }) {
  const { signOut } = useAuth();
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
      <QueryScope>
        <Suspense fallback={null}>
          <NotificationsBell onNavigate={onNavigate} />
        </Suspense>
      </QueryScope>
      <AccountMenu email={user.email} roles={user.app_metadata.roles} onNavigate={onNavigate} />
      <Button variant="outline" size="sm" onClick={handleSignOut}>
        Sign Out
      </Button>
    </>
  );
}

// Which staff pages each role opens; the pages and the API check the roles again.
const staffLinks = [
  { role: 'mediator', to: paths.staffDisputes, label: 'Disputes' },
  { role: 'compliance', to: paths.staffKyc, label: 'KYC review' },
  { role: 'admin', to: paths.staffInbox, label: 'Support inbox' },
  { role: 'admin', to: paths.staffChat, label: 'Live chat' },
  { role: 'admin', to: paths.staffUsers, label: 'Staff roles' },
  { role: ['mediator', 'compliance', 'admin'], to: paths.staffAlerts, label: 'Escrow alerts' },
  { role: ['mediator', 'compliance', 'admin'], to: paths.staffDeals, label: 'Deals' },
  { role: 'concierge', to: paths.staffTravel, label: 'Concierge' },
] as const;

// A native disclosure, so the menu costs the first page load no script.
function AccountMenu({
  email,
  roles,
  onNavigate,
}: {
  email: string | undefined;
  roles: unknown;
  onNavigate?: () => void;
}) {
  const menu = useRef<HTMLDetailsElement>(null);
  const held = Array.isArray(roles) ? roles : [];
  const links = [
    { to: paths.accountSecurity, label: 'Security' },
    { to: paths.escrowKey, label: 'Escrow key' },
    { to: paths.matchingSettings, label: 'Matching' },
    ...staffLinks.filter((link) => [link.role].flat().some((role) => held.includes(role))),
  ];
  const close = () => {
    if (menu.current) menu.current.open = false;
    onNavigate?.();
  };
  return (
    <details ref={menu} className="relative min-w-0">
      <summary className="cursor-pointer truncate text-muted text-sm hover:text-foreground" title={email}>
        {email}
      </summary>
      <nav
        aria-label="Account"
        className="absolute right-0 z-50 mt-2 flex w-52 flex-col rounded-md border border-border bg-surface p-1 shadow-lg"
      >
        {links.map((link) => (
          <Link
            key={link.to}
            to={link.to}
            onClick={close}
            className="rounded px-3 py-2 text-sm hover:bg-surface-raised"
          >
            {link.label}
          </Link>
        ))}
      </nav>
    </details>
  );
}
