import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button.js';
import { FormField } from '@/components/ui/form-field.js';
import { useAuth } from '@/lib/auth.js';

type ReauthenticationDialogProps = {
  // Called with the renewed session's access token, or null when the user cancels.
  onDone: (accessToken: string | null) => void;
};

// Asked when the server answers REAUTHENTICATION_NEEDED (ADR 013): the password again, and the
// authenticator code when the account has a verified second factor. The action is then retried.
export function ReauthenticationDialog({ onDone }: ReauthenticationDialogProps) {
  const { user, reauthenticate } = useAuth();
  const needsCode = user?.factors?.some((factor) => factor.status === 'verified') ?? false;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!password || (needsCode && !/^\d{6}$/.test(code))) {
      setError(needsCode ? 'Enter your password and the 6-digit code.' : 'Enter your password.');
      return;
    }
    setPending(true);
    const result = await reauthenticate(password, needsCode ? code : undefined);
    setPending(false);
    if (result.error || !result.accessToken) {
      setError(result.error ?? 'Your password could not be confirmed.');
      return;
    }
    onDone(result.accessToken);
  };

  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/60 p-4">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="reauthentication-title"
        className="w-full max-w-md space-y-4 rounded-lg border border-border bg-surface p-6 shadow-lg"
      >
        <h2 id="reauthentication-title" className="font-semibold text-lg">
          Confirm It’s You
        </h2>
        <p className="text-muted text-sm">
          This action changes how your account or funds are protected, so it needs a recent sign-in. Enter
          your password to continue.
        </p>
        <form onSubmit={(event) => void submit(event)} className="space-y-4" noValidate>
          <FormField
            id="reauthentication-password"
            label="Password"
            type="password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          {needsCode && (
            <FormField
              id="reauthentication-code"
              label="Authenticator Code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(event) => setCode(event.target.value.trim())}
            />
          )}
          {error && (
            <p role="alert" className="text-danger text-sm">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => onDone(null)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Confirming...' : 'Confirm'}
            </Button>
          </div>
        </form>
      </div>
    </div>
  );
}
