import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { PageTitle } from '@/components/page-title.js';
import { useStaffRoles } from '@/features/account-security/components/staff-gate.js';

/** The staff who open any deal; the API checks the roles again. */
export const dealViewerRoles = ['compliance', 'mediator', 'admin'] as const;

/** Compliance officers, mediators and admins see `children`; other staff (concierge) a 403 page. */
export function DealViewersOnly({ children }: { children: ReactNode }) {
  const roles = useStaffRoles();
  if (!roles.some((role) => (dealViewerRoles as readonly string[]).includes(role))) return <NotAllowed />;
  return children;
}

function NotAllowed() {
  return (
    <div className="mx-auto max-w-xl space-y-4 px-4 py-24 text-center">
      <PageTitle title="Deals" />
      <ShieldAlert className="mx-auto size-10 text-destructive" aria-hidden />
      <h1 className="font-semibold text-2xl">403 — Compliance staff and mediators only</h1>
      <p className="text-muted">The staff deal view is open to compliance officers, mediators and admins.</p>
    </div>
  );
}
