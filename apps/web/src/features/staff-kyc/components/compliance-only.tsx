import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { useAuth } from '@/lib/auth.js';

/** The roles the server put into the session's user (app_metadata.roles); the API checks them again. */
function useIsCompliance(): boolean {
  const { user } = useAuth();
  const roles: unknown = user?.app_metadata.roles;
  return Array.isArray(roles) && roles.includes('compliance');
}

/** A page for compliance officers; anyone else signed in is told so (403) instead of seeing an empty queue. */
export function ComplianceOnly({ children }: { children: ReactNode }) {
  if (!useIsCompliance()) return <NotAllowed />;
  return children;
}

export function NotAllowed() {
  return (
    <div className="mx-auto max-w-xl space-y-4 px-4 py-24 text-center">
      <ShieldAlert className="mx-auto size-10 text-destructive" aria-hidden />
      <h1 className="font-semibold text-2xl">403 — Compliance staff only</h1>
      <p className="text-muted">KYC review is open to Covenant compliance officers.</p>
    </div>
  );
}
