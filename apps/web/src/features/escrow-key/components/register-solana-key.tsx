import { useState } from 'react';
import { Button } from '@/components/ui/button.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useChains } from '@/features/escrow/api/get-chains.js';
import { useWalletSigners } from '../api/connect-bitcoin-key.js';
import { useConnectSolanaKey } from '../api/connect-solana-key.js';
import { chainsListSolana, solanaEscrowKeyFromSeed } from '../lib/solana-escrow-key.js';
import { UnlockEscrowKey } from './unlock-escrow-key.js';

/**
 * The Solana signer of the stored escrow key, where the server runs Solana escrows: the registered
 * address, or, for a key saved before Solana was offered, the way to register it (the seed is
 * unlocked in this browser to derive it; only the address is sent).
 */
export function RegisterSolanaKey() {
  const chains = useChains(true);
  const offered = chainsListSolana(chains.data ?? []);
  const signers = useWalletSigners(offered);
  const connect = useConnectSolanaKey();
  const [unlocking, setUnlocking] = useState(false);
  const [problem, setProblem] = useState<string>();
  if (!offered) return null;
  if (signers.isPending) return <Spinner label="Loading your Solana key" />;
  const registered = signers.data?.find((signer) => signer.chain === 'SOL')?.address;

  const register = (mnemonic: string) => {
    setProblem(undefined);
    const { address } = solanaEscrowKeyFromSeed(mnemonic);
    connect.mutate(address, {
      onSuccess: () => setUnlocking(false),
      onError: (error) => setProblem(error.message),
    });
  };

  return (
    <div className="space-y-2 text-sm">
      <p className="text-muted">Solana signing address</p>
      {registered ? (
        <code className="block break-all font-mono">{registered}</code>
      ) : unlocking ? (
        <UnlockEscrowKey onUnlocked={register} submitLabel="Register Solana key" />
      ) : (
        <>
          <p>Your escrow key has no Solana key registered yet: you need one to trade on Solana.</p>
          <Button variant="outline" size="sm" onClick={() => setUnlocking(true)}>
            Register Solana key
          </Button>
        </>
      )}
      {problem ? (
        <p role="alert" className="text-destructive">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
