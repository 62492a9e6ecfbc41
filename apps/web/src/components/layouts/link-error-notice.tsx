import { TriangleAlert, X } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths.js';

// The server's error codes for a sign-in with Google that did not finish (GoTrue's, and ours for the
// account that needs its password first).
const googleSignInCodes = new Set([
  'identity_link_required',
  'bad_oauth_state',
  'bad_oauth_callback',
  'provider_email_needs_verification',
  'provider_disabled',
  'provider_unavailable',
]);

// Shown when the visitor arrived through a confirmation or recovery link the server refused, or came
// back from Google without being signed in.
export function LinkErrorNotice({
  message,
  code,
  onDismiss,
}: {
  message: string;
  code: string | null;
  onDismiss: () => void;
}) {
  const google = code !== null && googleSignInCodes.has(code);
  const signInLink = (
    <Link to={paths.signIn} className="text-primary underline-offset-4 hover:underline">
      sign in
    </Link>
  );
  return (
    <div role="alert" className="border-destructive/40 border-b bg-destructive/10">
      <div className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-3 sm:px-6">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
        <div className="min-w-0 flex-1 text-sm">
          <p className="font-semibold">
            {google ? 'Sign-in with Google did not complete.' : 'That link could not be used.'}
          </p>
          <p className="mt-1">{message}</p>
          {code === 'identity_link_required' ? (
            <p className="mt-1 text-muted">
              Once you {signInLink} with your e-mail and password in this browser, Google is linked to your
              account and signs you in from then on.
            </p>
          ) : google ? (
            <p className="mt-1 text-muted">
              Try Continue with Google again, or {signInLink} with your e-mail and password.
            </p>
          ) : (
            <p className="mt-1 text-muted">
              Links from our e-mails work once and expire. If you were confirming your e-mail, try to{' '}
              <Link to={paths.auth} className="text-primary underline-offset-4 hover:underline">
                sign in
              </Link>
              ; you can also request a new password-reset link there.
            </p>
          )}
        </div>
        <button
          type="button"
          onClick={onDismiss}
          aria-label="Dismiss"
          className="rounded-md p-1 text-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </div>
    </div>
  );
}
