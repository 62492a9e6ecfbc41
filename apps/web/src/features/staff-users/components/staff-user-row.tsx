import { type StaffRole, type StaffUser, staffRoles } from '@covenant/domain';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { useSetStaffRoles } from '../api/set-staff-roles.js';

const roleLabels: Record<StaffRole, string> = {
  mediator: 'Mediator',
  compliance: 'Compliance',
  admin: 'Admin',
  concierge: 'Concierge',
};

/** One user with a checkbox per staff role; Save replaces their roles with the ticked ones. */
export function StaffUserRow({ user, isSelf }: { user: StaffUser; isSelf: boolean }) {
  const [roles, setRoles] = useState<StaffRole[]>(user.roles);
  const save = useSetStaffRoles();
  const changed = roles.length !== user.roles.length || roles.some((role) => !user.roles.includes(role));
  const toggle = (role: StaffRole, on: boolean) =>
    setRoles((current) => (on ? [...current, role] : current.filter((held) => held !== role)));

  return (
    <li className="flex flex-wrap items-center justify-between gap-4 rounded-md border border-border p-4">
      <div className="min-w-0">
        <p className="truncate font-medium">{user.email}</p>
        <p className="text-muted text-xs">
          {user.username ? `@${user.username}` : 'no username'}
          {isSelf ? ' · you' : ''}
        </p>
      </div>
      <fieldset className="flex flex-wrap items-center gap-4">
        <legend className="sr-only">Staff roles of {user.email}</legend>
        {staffRoles.map((role) => (
          <label key={role} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={roles.includes(role)}
              // The server refuses it too: an admin cannot lock themselves out of this page.
              disabled={isSelf && role === 'admin'}
              onChange={(event) => toggle(role, event.target.checked)}
            />
            {roleLabels[role]}
          </label>
        ))}
        <Button
          size="sm"
          disabled={!changed || save.isPending}
          onClick={() =>
            save.mutate(
              { userId: user.id, roles: [...roles].sort() },
              {
                onSuccess: () =>
                  toast.success('Roles saved', {
                    description: `They apply from ${user.email}'s next request.`,
                  }),
              },
            )
          }
        >
          Save
        </Button>
      </fieldset>
      {save.isError && (
        <p role="alert" className="w-full text-destructive text-sm">
          {save.error.message}
        </p>
      )}
    </li>
  );
}
