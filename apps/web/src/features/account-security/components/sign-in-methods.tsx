import type { UserIdentity } from '@supabase/auth-js';
import { useState } from 'react';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { useAuth } from '@/lib/auth.js';
import { useRetryAfterReauthentication } from '@/lib/reauthentication.js';

const providerLabels: Record<string, string> = { email: 'E-mail and password', google: 'Google' };

/** "Sign-in methods": the identities that sign in to the account, with "Unlink" for Google. */
export function SignInMethods() {
  const { user, unlinkIdentity } = useAuth();
  const retryAfterReauthentication = useRetryAfterReauthentication();
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const identities = user?.identities ?? [];

  const unlink = async (identity: UserIdentity) => {
    setStatus(null);
    setError(null);
    setBusy(identity.identity_id);
    // A sensitive change: a sign-in older than the window asks for the password first.
    const result = await retryAfterReauthentication(() => unlinkIdentity(identity));
    setBusy(null);
    if (result.error) {
      setError(
        result.error.code === 'single_identity_not_deletable'
          ? 'This is the only way to sign in to your account: set a password first (Forgot password?).'
          : result.error.message,
      );
      return;
    }
    setStatus('Google sign-in was removed');
  };

  return (
    <section aria-labelledby="sign-in-methods-heading">
      <Card className="space-y-4">
        <div className="space-y-1">
          <h2 id="sign-in-methods-heading" className="font-semibold text-lg">
            Sign-in methods
          </h2>
          <p className="text-muted text-sm">The ways you can sign in to this account.</p>
        </div>
        <ul className="space-y-3">
          {identities.map((identity) => (
            <li key={identity.identity_id} className="flex flex-wrap items-center justify-between gap-3">
              <div className="text-sm">
                <p className="font-medium">{providerLabels[identity.provider] ?? identity.provider}</p>
                {typeof identity.identity_data?.email === 'string' && (
                  <p className="text-muted">{identity.identity_data.email}</p>
                )}
              </div>
              {identity.provider === 'google' && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={busy === identity.identity_id}
                  onClick={() => void unlink(identity)}
                >
                  Unlink
                </Button>
              )}
            </li>
          ))}
        </ul>
        {status && (
          <p role="status" className="text-sm">
            {status}
          </p>
        )}
        {error && (
          <p role="alert" className="text-destructive text-sm">
            {error}
          </p>
        )}
      </Card>
    </section>
  );
}
