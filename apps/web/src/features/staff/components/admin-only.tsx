import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { useAuth } from '@/lib/auth.js';

/** The roles the server put into the session's user (app_metadata.roles); the API checks them again. */
export function useIsAdmin(): boolean {
  const { user } = useAuth();
  const roles: unknown = user?.app_metadata.roles;
  return Array.isArray(roles) && roles.includes('admin');
}

/** A staff page for admins; anyone else signed in is told so (403) instead of seeing an empty inbox. */
export function AdminOnly({ children }: { children: ReactNode }) {
  if (!useIsAdmin()) return <NotAllowed />;
  return children;
}

export function NotAllowed() {
  return (
    <div className="mx-auto max-w-xl space-y-4 px-4 py-24 text-center">
      <ShieldAlert className="mx-auto size-10 text-destructive" aria-hidden />
      <h1 className="font-semibold text-2xl">403 — Admins only</h1>
      <p className="text-muted">
        The support inbox is open to Covenant administrators. If you need help, write to our support team.
      </p>
      <Button asChild variant="outline">
        <Link to={paths.contact}>Contact Support</Link>
      </Button>
    </div>
  );
}
