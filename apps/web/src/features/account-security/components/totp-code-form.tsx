import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { FormField } from '@/components/ui/form-field.js';

/** A 6-digit code from the authenticator app; `onSubmit` rejects with the reason when it is refused. */
export function TotpCodeForm({
  submitLabel,
  onSubmit,
}: {
  submitLabel: string;
  onSubmit: (code: string) => Promise<void>;
}) {
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setError('Enter the 6-digit code from your authenticator app');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(code);
      setCode('');
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The code could not be checked');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="max-w-xs space-y-3" noValidate onSubmit={(event) => void submit(event)}>
      <FormField
        id={`${id}-code`}
        label="Authentication code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        placeholder="123456"
        value={code}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
      />
      <FieldError id={`${id}-error`} message={error ?? undefined} />
      <Button type="submit" disabled={busy}>
        {submitLabel}
      </Button>
    </form>
  );
}
