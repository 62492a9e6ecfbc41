import { useId, useState } from 'react';
import { createEscrowSeed } from '../lib/escrow-seed.js';
import { BackupPhrase } from './backup-phrase.js';
import { EscrowPasswordForm, type SavedEscrowKey } from './escrow-password-form.js';

/**
 * A new escrow key: its backup phrase, shown this once (the page never shows it again), then the
 * escrow password that encrypts it for storage.
 */
export function CreateEscrowKey({
  onSaved,
  onCancel,
}: {
  onSaved: (saved: SavedEscrowKey) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [mnemonic] = useState(createEscrowSeed);
  const [writtenDown, setWrittenDown] = useState(false);
  return (
    <div className="space-y-4">
      <h3 className="font-semibold">Your backup phrase</h3>
      <p className="text-muted text-sm">
        Write these 12 words down on paper, in order, and keep them somewhere safe. They are the only way back
        to your key if you forget your escrow password, and this is the only time they are shown.
      </p>
      <BackupPhrase mnemonic={mnemonic} />
      <div className="flex items-start gap-3">
        <input
          id={`${id}-written`}
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-primary"
          checked={writtenDown}
          onChange={(event) => setWrittenDown(event.target.checked)}
        />
        <label htmlFor={`${id}-written`} className="text-sm">
          I have written down my backup phrase
        </label>
      </div>
      {writtenDown ? <EscrowPasswordForm mnemonic={mnemonic} onSaved={onSaved} onCancel={onCancel} /> : null}
    </div>
  );
}
