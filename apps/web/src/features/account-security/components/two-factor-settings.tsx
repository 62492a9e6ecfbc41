import type { Factor } from '@supabase/auth-js';
import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { LoadError } from '@/components/load-error.js';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useAuth } from '@/lib/auth.js';
import { useRetryAfterReauthentication } from '@/lib/reauthentication.js';
import { useAssuranceLevel } from '../api/assurance-level.js';
import { useMfaFactors } from '../api/mfa-factors.js';
import { verifyTotpCode } from '../api/verify-totp-code.js';
import { TotpCodeForm } from './totp-code-form.js';

type Enrolment = { id: string; qrCode: string; secret: string };

/** "Two-factor authentication": set up a TOTP authenticator app, see it, remove it. */
export function TwoFactorSettings() {
  const { mfa, user } = useAuth();
  const retryAfterReauthentication = useRetryAfterReauthentication();
  const queryClient = useQueryClient();
  const factors = useMfaFactors();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [enrolError, setEnrolError] = useState<string | null>(null);
  const verified = (factors.data ?? []).filter((factor) => factor.status === 'verified');
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['auth', user?.id, 'mfa-factors'] });

  const startEnrolment = async () => {
    setStatus(null);
    setEnrolError(null);
    // An enrolment left unfinished earlier is dropped first: it was never usable.
    for (const factor of factors.data ?? []) {
      if (factor.status !== 'verified') {
        await retryAfterReauthentication(() => mfa.unenroll({ factorId: factor.id }));
      }
    }
    // A second factor is a sensitive change: a sign-in older than the window asks for the password.
    const { data, error } = await retryAfterReauthentication(() =>
      mfa.enroll({ factorType: 'totp', friendlyName: 'Authenticator app' }),
    );
    if (error) {
      setEnrolError(error.message);
      return;
    }
    setEnrolment({ id: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret });
  };

  return (
    <section aria-labelledby="two-factor-heading">
      <Card className="space-y-5">
        <div className="space-y-1">
          <h2 id="two-factor-heading" className="font-semibold text-lg">
            Two-factor authentication
          </h2>
          <p className="text-muted text-sm">
            A code from an authenticator app on your phone, asked for on top of your password. Staff pages
            require it.
          </p>
        </div>
        {status && (
          <p role="status" className="flex items-center gap-2 font-medium text-primary">
            <ShieldCheck className="size-5" aria-hidden />
            {status}
          </p>
        )}
        {factors.isPending ? (
          <Spinner label="Loading your authenticators" />
        ) : factors.isError ? (
          <LoadError onRetry={() => void factors.refetch()}>
            Your authenticators could not be loaded: {factors.error.message}
          </LoadError>
        ) : enrolment ? (
          <div className="space-y-4">
            <ol className="list-decimal space-y-1 pl-5 text-sm">
              <li>Scan the QR code with your authenticator app, or type in the secret below.</li>
              <li>Enter the 6-digit code the app shows.</li>
            </ol>
            <img
              src={enrolment.qrCode}
              alt="QR code for your authenticator app"
              className="size-44 rounded-md bg-white p-2"
            />
            <div>
              <h3 className="text-muted text-xs uppercase tracking-wide">Secret</h3>
              <p className="break-all font-mono text-sm" data-testid="totp-secret">
                {enrolment.secret}
              </p>
            </div>
            <TotpCodeForm
              submitLabel="Verify and turn on"
              onSubmit={async (code) => {
                await verifyTotpCode(mfa, enrolment.id, code);
                setEnrolment(null);
                setStatus('Two-factor authentication is on');
                await refresh();
              }}
            />
          </div>
        ) : verified.length > 0 ? (
          <ul className="space-y-3">
            {verified.map((factor) => (
              <VerifiedFactor
                key={factor.id}
                factor={factor}
                onRemoved={async () => {
                  setStatus('The authenticator was removed');
                  await refresh();
                }}
              />
            ))}
          </ul>
        ) : (
          <div className="space-y-2">
            <p className="text-sm">Two-factor authentication is off.</p>
            <Button onClick={() => void startEnrolment()}>Set up an authenticator app</Button>
            {enrolError && (
              <p role="alert" className="text-destructive text-sm">
                {enrolError}
              </p>
            )}
          </div>
        )}
      </Card>
    </section>
  );
}

/** A verified authenticator; removing it takes a current code unless this session already passed one. */
function VerifiedFactor({ factor, onRemoved }: { factor: Factor; onRemoved: () => Promise<void> }) {
  const { mfa } = useAuth();
  const retryAfterReauthentication = useRetryAfterReauthentication();
  const level = useAssuranceLevel();
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const remove = async () => {
    const { error: refused } = await retryAfterReauthentication(() => mfa.unenroll({ factorId: factor.id }));
    if (refused) throw refused;
    await onRemoved();
  };

  return (
    <li className="space-y-3 rounded-md border border-border p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="font-medium">{factor.friendly_name ?? 'Authenticator app'}</p>
          <p className="text-muted text-xs">Added {new Date(factor.created_at).toLocaleDateString()}</p>
        </div>
        {!removing && (
          <Button variant="outline" size="sm" onClick={() => setRemoving(true)}>
            Remove
          </Button>
        )}
      </div>
      {removing &&
        (level.currentLevel === 'aal2' ? (
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-sm">
              Remove this authenticator? Staff pages will be closed to you until you add one.
            </p>
            <Button
              variant="outline"
              className="text-destructive"
              size="sm"
              onClick={() => void remove().catch((failure: Error) => setError(failure.message))}
            >
              Remove authenticator
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setRemoving(false)}>
              Cancel
            </Button>
          </div>
        ) : (
          <div className="space-y-2">
            <p className="text-sm">Enter a current code from this authenticator to remove it.</p>
            <TotpCodeForm
              submitLabel="Confirm and remove"
              onSubmit={async (code) => {
                await verifyTotpCode(mfa, factor.id, code);
                await remove();
              }}
            />
          </div>
        ))}
      {error && (
        <p role="alert" className="text-destructive text-sm">
          {error}
        </p>
      )}
    </li>
  );
}
