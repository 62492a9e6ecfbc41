import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { getChainsQueryOptions } from '@/features/escrow/api/get-chains.js';
import { useApiClient } from '@/lib/api-client.js';
import { useConnectBitcoinKey } from '../api/connect-bitcoin-key.js';
import { useConnectSolanaKey } from '../api/connect-solana-key.js';
import { usePutEscrowKey } from '../api/escrow-key.js';
import { bitcoinEscrowKeyFromSeed, bitcoinKeyNetworkOfChains } from '../lib/bitcoin-escrow-key.js';
import { encryptEscrowSeed, ethereumAccountFromSeed } from '../lib/escrow-seed.js';
import { chainsListSolana, solanaEscrowKeyFromSeed } from '../lib/solana-escrow-key.js';

const minPasswordLength = 12;

type Problems = { password?: string; confirm?: string; save?: string };

/** What was saved: the Ethereum address, and the Bitcoin and Solana keys registered with it. */
export type SavedEscrowKey = { ethereumAddress: string; bitcoinPublicKey?: string; solanaAddress?: string };

/**
 * Chooses the escrow password, encrypts `mnemonic` with it in the browser and stores only the
 * ciphertext. The password is never sent: forgetting it leaves only the backup phrase. Where the
 * server runs Bitcoin or Solana escrows, the seed's Bitcoin public key and Solana address are
 * registered as well.
 */
export function EscrowPasswordForm({
  mnemonic,
  onSaved,
  onCancel,
}: {
  mnemonic: string;
  onSaved: (saved: SavedEscrowKey) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const api = useApiClient();
  const queryClient = useQueryClient();
  const connectBitcoin = useConnectBitcoinKey();
  const connectSolana = useConnectSolanaKey();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [encrypting, setEncrypting] = useState(false);
  const save = usePutEscrowKey();
  const busy = encrypting || save.isPending || connectBitcoin.isPending || connectSolana.isPending;

  const submit = async () => {
    const found: Problems = {};
    if (password.length < minPasswordLength) {
      found.password = `Use at least ${minPasswordLength} characters.`;
    }
    if (confirm !== password) found.confirm = 'The two passwords do not match.';
    setProblems(found);
    if (found.password || found.confirm) return;
    setEncrypting(true);
    try {
      const encrypted = await encryptEscrowSeed(mnemonic, password);
      const ethereumAddress = ethereumAccountFromSeed(mnemonic).address;
      await save.mutateAsync({ ...encrypted, ethereum_address: ethereumAddress });
      // Without the chain list the Bitcoin and Solana keys are registered later, from the escrow key page.
      const chains = await queryClient.fetchQuery(getChainsQueryOptions(api)).catch(() => []);
      const saved: SavedEscrowKey = { ethereumAddress };
      const bitcoinNetwork = bitcoinKeyNetworkOfChains(chains);
      if (bitcoinNetwork) {
        const bitcoinPublicKey = bitcoinEscrowKeyFromSeed(mnemonic, bitcoinNetwork).publicKey;
        try {
          await connectBitcoin.mutateAsync(bitcoinPublicKey);
          saved.bitcoinPublicKey = bitcoinPublicKey;
        } catch (error) {
          const reason = error instanceof Error ? ` ${error.message}` : '';
          setProblems({ save: `Your escrow key is saved, but its Bitcoin key was not registered.${reason}` });
          return;
        }
      }
      if (chainsListSolana(chains)) {
        const solanaAddress = solanaEscrowKeyFromSeed(mnemonic).address;
        try {
          await connectSolana.mutateAsync(solanaAddress);
          saved.solanaAddress = solanaAddress;
        } catch (error) {
          const reason = error instanceof Error ? ` ${error.message}` : '';
          setProblems({ save: `Your escrow key is saved, but its Solana key was not registered.${reason}` });
          return;
        }
      }
      onSaved(saved);
    } catch (error) {
      setProblems({ save: error instanceof Error ? error.message : 'The escrow key was not saved.' });
    } finally {
      setEncrypting(false);
    }
  };

  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <p className="text-muted text-sm">
        Choose an escrow password. It encrypts your key in this browser and is never sent to Covenant, so
        nobody can reset it: without it, only your backup phrase brings the key back.
      </p>
      <div className="space-y-2">
        <Label htmlFor={`${id}-password`}>Escrow password</Label>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete="new-password"
          value={password}
          aria-invalid={problems.password ? true : undefined}
          aria-describedby={problems.password ? `${id}-password-error` : undefined}
          onChange={(event) => setPassword(event.target.value)}
        />
        <FieldError id={`${id}-password-error`} message={problems.password} />
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${id}-confirm`}>Confirm escrow password</Label>
        <Input
          id={`${id}-confirm`}
          type="password"
          autoComplete="new-password"
          value={confirm}
          aria-invalid={problems.confirm ? true : undefined}
          aria-describedby={problems.confirm ? `${id}-confirm-error` : undefined}
          onChange={(event) => setConfirm(event.target.value)}
        />
        <FieldError id={`${id}-confirm-error`} message={problems.confirm} />
      </div>
      {problems.save ? (
        <p role="alert" className="text-destructive text-sm">
          {problems.save}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving escrow key…' : 'Save escrow key'}
        </Button>
        <Button type="button" variant="ghost" disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
