import { useId, useState } from 'react';
import { Link } from 'react-router';
import { LoadError } from '@/components/load-error.js';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { useEscrowKey } from '../api/escrow-key.js';
import { decryptEscrowSeed } from '../lib/escrow-seed.js';

/**
 * Asks for the escrow password and decrypts the stored seed in the browser, for whatever must be
 * signed next (an escrow payout). The seed goes to `onUnlocked` only; nothing here keeps it.
 */
export function UnlockEscrowKey({
  onUnlocked,
  submitLabel = 'Unlock',
}: {
  onUnlocked: (mnemonic: string) => void;
  submitLabel?: string;
}) {
  const id = useId();
  const escrowKey = useEscrowKey();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string>();
  const [unlocking, setUnlocking] = useState(false);

  if (escrowKey.isPending) return <Spinner label="Loading your escrow key" />;
  if (escrowKey.isError) {
    return (
      <LoadError onRetry={() => void escrowKey.refetch()}>Your escrow key could not be loaded.</LoadError>
    );
  }
  const record = escrowKey.data;
  if (!record) {
    return (
      <p className="text-sm">
        <Link to={paths.escrowKey} className="text-primary underline-offset-4 hover:underline">
          Create your escrow key first
        </Link>
      </p>
    );
  }

  const unlock = async () => {
    setUnlocking(true);
    try {
      const mnemonic = await decryptEscrowSeed(record, password);
      setProblem(undefined);
      setPassword('');
      onUnlocked(mnemonic);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setUnlocking(false);
    }
  };

  return (
    <form
      className="space-y-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void unlock();
      }}
    >
      <div className="space-y-2">
        <Label htmlFor={`${id}-password`}>Escrow password</Label>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          value={password}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-password-error` : undefined}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FieldError id={`${id}-password-error`} message={problem} />
      </div>
      <Button type="submit" disabled={unlocking || password.length === 0}>
        {unlocking ? 'Unlocking…' : submitLabel}
      </Button>
    </form>
  );
}
