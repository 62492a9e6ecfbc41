import { ShieldAlert } from 'lucide-react';
import { ApiError } from '@/lib/api-client.js';

/** What a refused request means for a mediator: no role, or a session without a second factor. */
export function describeStaffError(error: Error): string {
  if (error instanceof ApiError && error.status === 403) {
    return error.details?.required_aal
      ? 'The dispute console needs a session verified with a second factor. Sign in again with your authenticator code.'
      : 'The dispute console is open to mediators only.';
  }
  return error.message;
}

/** A page-sized 403: shown instead of the console when the API refuses the caller. */
export function StaffForbidden({ error }: { error: Error }) {
  return (
    <div role="alert" className="mx-auto max-w-xl space-y-4 px-4 py-24 text-center">
      <ShieldAlert className="mx-auto size-10 text-destructive" aria-hidden />
      <h1 className="font-semibold text-2xl">403 — Mediators only</h1>
      <p className="text-muted">{describeStaffError(error)}</p>
    </div>
  );
}
