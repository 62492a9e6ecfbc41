import { useState } from 'react';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useAuth } from '@/lib/auth.js';
import { useStaffUsers } from '../api/find-staff-users.js';
import { StaffUserRow } from '../components/staff-user-row.js';

/** `/staff/users`: admins find users and set their staff roles. */
export function StaffUsersRoute() {
  const { user } = useAuth();
  const roles: unknown = user?.app_metadata.roles;
  if (!Array.isArray(roles) || !roles.includes('admin')) return <AdminsOnly />;
  return <StaffUsers currentUserId={user?.id} />;
}

function StaffUsers({ currentUserId }: { currentUserId: string | undefined }) {
  const [query, setQuery] = useState('');
  const users = useStaffUsers(query.trim());
  const list = users.data?.data ?? [];

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Staff roles" />
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Staff roles</h1>
        <p className="mt-2 text-muted">
          Find a user by e-mail address or username and choose their roles. Every user can trade; mediators
          decide disputes, compliance officers review KYC, admins run the support inbox and this page.
        </p>
      </div>
      <div className="max-w-md space-y-1">
        <Label htmlFor="staff-users-search">Search users</Label>
        <Input
          id="staff-users-search"
          type="search"
          placeholder="name@example.com or username"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      {users.isPending ? (
        <Spinner label="Searching users" />
      ) : users.isError ? (
        <LoadError onRetry={() => void users.refetch()}>
          The users could not be loaded: {users.error.message}
        </LoadError>
      ) : list.length === 0 ? (
        <p className="text-muted">No user matches “{query}”.</p>
      ) : (
        <ul className="space-y-3" aria-label="Users">
          {list.map((found) => (
            // Keyed by roles too: after a save the row starts again from what the server holds.
            <StaffUserRow
              key={`${found.id}:${found.roles.join()}`}
              user={found}
              isSelf={found.id === currentUserId}
            />
          ))}
        </ul>
      )}
      {users.data?.has_more && (
        <p className="text-muted text-sm">Showing the first 50; narrow the search to see others.</p>
      )}
    </div>
  );
}

function AdminsOnly() {
  return (
    <div className="mx-auto max-w-xl space-y-4 px-4 py-24 text-center">
      <PageTitle title="Admins only" />
      <h1 className="font-semibold text-2xl">403 — Admins only</h1>
      <p className="text-muted">Staff roles are assigned by Covenant administrators.</p>
    </div>
  );
}
