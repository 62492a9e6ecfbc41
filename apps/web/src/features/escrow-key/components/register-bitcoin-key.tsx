import { useState } from 'react';
import { Button } from '@/components/ui/button.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useChains } from '@/features/escrow/api/get-chains.js';
import { useConnectBitcoinKey, useWalletSigners } from '../api/connect-bitcoin-key.js';
import { bitcoinEscrowKeyFromSeed, bitcoinKeyNetworkOfChains } from '../lib/bitcoin-escrow-key.js';
import { UnlockEscrowKey } from './unlock-escrow-key.js';

/**
 * The Bitcoin signer of the stored escrow key, where the server runs Bitcoin escrows: the registered
 * public key, or, for a key saved before Bitcoin was offered, the way to register it (the seed is
 * unlocked in this browser to derive it; only the public key is sent).
 */
export function RegisterBitcoinKey() {
  const chains = useChains(true);
  const network = bitcoinKeyNetworkOfChains(chains.data ?? []);
  const signers = useWalletSigners(network !== null);
  const connect = useConnectBitcoinKey();
  const [unlocking, setUnlocking] = useState(false);
  const [problem, setProblem] = useState<string>();
  if (!network) return null;
  if (signers.isPending) return <Spinner label="Loading your Bitcoin key" />;
  const registered = signers.data?.find((signer) => signer.chain === 'BTC')?.address;

  const register = (mnemonic: string) => {
    setProblem(undefined);
    const { publicKey } = bitcoinEscrowKeyFromSeed(mnemonic, network);
    connect.mutate(publicKey, {
      onSuccess: () => setUnlocking(false),
      onError: (error) => setProblem(error.message),
    });
  };

  return (
    <div className="space-y-2 text-sm">
      <p className="text-muted">Bitcoin signing key</p>
      {registered ? (
        <code className="block break-all font-mono">{registered}</code>
      ) : unlocking ? (
        <UnlockEscrowKey onUnlocked={register} submitLabel="Register Bitcoin key" />
      ) : (
        <>
          <p>Your escrow key has no Bitcoin key registered yet: you need one to trade on Bitcoin.</p>
          <Button variant="outline" size="sm" onClick={() => setUnlocking(true)}>
            Register Bitcoin key
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
