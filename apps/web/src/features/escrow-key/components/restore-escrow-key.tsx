import { useId, useState } from 'react';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Label } from '@/components/ui/label.js';
import { Textarea } from '@/components/ui/textarea.js';
import { ethereumAccountFromSeed, isValidEscrowSeed, normalizeEscrowSeed } from '../lib/escrow-seed.js';
import { EscrowPasswordForm, type SavedEscrowKey } from './escrow-password-form.js';

const invalidPhrase = 'That backup phrase is not valid.';

/**
 * An escrow key brought back from its 12-word backup phrase (a new device, a forgotten escrow
 * password): the words are checked against the BIP-39 list and checksum, then encrypted anew.
 */
export function RestoreEscrowKey({
  onSaved,
  onCancel,
}: {
  onSaved: (saved: SavedEscrowKey) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [words, setWords] = useState('');
  const [problem, setProblem] = useState<string>();
  const [restored, setRestored] = useState<{ mnemonic: string; address: string }>();

  const check = () => {
    const mnemonic = normalizeEscrowSeed(words);
    if (!isValidEscrowSeed(mnemonic)) return setProblem(invalidPhrase);
    try {
      setRestored({ mnemonic, address: ethereumAccountFromSeed(mnemonic).address });
      setProblem(undefined);
    } catch {
      setProblem(invalidPhrase);
    }
  };

  if (restored) {
    return (
      <div className="space-y-4">
        <p className="text-sm">
          This phrase signs as <code className="break-all font-mono">{restored.address}</code>.
        </p>
        <EscrowPasswordForm mnemonic={restored.mnemonic} onSaved={onSaved} onCancel={onCancel} />
      </div>
    );
  }
  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        check();
      }}
    >
      <div className="space-y-2">
        <Label htmlFor={`${id}-words`}>Backup phrase</Label>
        <Textarea
          id={`${id}-words`}
          value={words}
          rows={3}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          placeholder="The 12 words, in order, separated by spaces"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-words-error` : undefined}
          onChange={(event) => setWords(event.target.value)}
        />
        <FieldError id={`${id}-words-error`} message={problem} />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit">Continue</Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
