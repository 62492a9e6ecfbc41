import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { FormField } from '@/components/ui/form-field.js';
import { type MeetingCheckInInput, useCheckInAtMeeting } from '../api/meeting-check-in.js';
import { MeetingQrScanner } from './meeting-qr-scanner.js';
import { readPosition } from './read-position.js';

/**
 * Check-in at the meeting with the other party's current code: scanned from their phone's QR with
 * the camera, or typed (the fallback). The phone's position is asked for once, just before sending;
 * refused or unavailable, the check-in goes ahead without it. The server's refusal (expired, used or
 * foreign code, check-in closed) is shown in its own words.
 */
export function MeetingCheckInForm({ dealId, otherName }: { dealId: string; otherName: string }) {
  const id = useId();
  const checkIn = useCheckInAtMeeting(dealId);
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string>();
  const [scanning, setScanning] = useState(false);
  const [locating, setLocating] = useState(false);
  const busy = locating || checkIn.isPending;

  const send = async (code: string, method: MeetingCheckInInput['method']) => {
    setLocating(true);
    const position = await readPosition();
    setLocating(false);
    checkIn.mutate(
      { token: code, method, ...(position ?? {}) },
      {
        onSuccess: (result) => {
          setToken('');
          toast.success('Checked in', {
            description:
              result.within_radius === null
                ? 'Recorded without your position: the mediators will see it was not shared.'
                : result.within_radius
                  ? 'Recorded at the meeting place.'
                  : 'Recorded outside the meeting place’s radius: the mediators will see it.',
          });
        },
      },
    );
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const code = token.trim();
    if (!code) return setProblem(`Type ${otherName}'s code, or scan their QR code.`);
    setProblem(undefined);
    void send(code, 'code');
  };

  return (
    <div className="space-y-3">
      <p className="text-muted text-sm">
        Checking in asks your phone for its position once, to show you were at the meeting place. Only you,{' '}
        {otherName} and the mediators see it, and it is erased after 90 days. If you refuse, the check-in is
        still recorded and flagged for the mediators.
      </p>
      {scanning ? (
        <div className="space-y-2">
          <MeetingQrScanner
            onScan={(text) => {
              setScanning(false);
              void send(text, 'qr');
            }}
            onError={(message) => {
              setScanning(false);
              setProblem(message);
            }}
          />
          <Button type="button" variant="outline" onClick={() => setScanning(false)}>
            Stop scanning
          </Button>
        </div>
      ) : (
        <Button type="button" className="w-full sm:w-auto" disabled={busy} onClick={() => setScanning(true)}>
          Scan their QR code
        </Button>
      )}
      <form noValidate onSubmit={submit} className="space-y-2" aria-label="Check in by code">
        <FormField
          id={`${id}-code`}
          label={`${otherName}'s code`}
          placeholder="ABCD-EFGH"
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          maxLength={120}
          className="font-mono text-lg tracking-widest"
          value={token}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-code-error` : undefined}
          onChange={(event) => setToken(event.target.value)}
        />
        <FieldError id={`${id}-code-error`} message={problem} />
        <Button type="submit" variant="outline" className="w-full sm:w-auto" disabled={busy}>
          {locating ? 'Reading your position…' : checkIn.isPending ? 'Checking in…' : 'Check in'}
        </Button>
      </form>
      {checkIn.isError && (
        <p role="alert" className="text-destructive text-sm">
          {checkIn.error.message}
        </p>
      )}
    </div>
  );
}
