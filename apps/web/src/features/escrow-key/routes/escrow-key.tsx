import type { EscrowKeyRecord } from '@covenant/domain';
import { useState } from 'react';
import { LoadError } from '@/components/load-error.js';
import { PageSpinner } from '@/components/page-spinner.js';
import { PageTitle } from '@/components/page-title.js';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { useEscrowKey } from '../api/escrow-key.js';
import { CreateEscrowKey } from '../components/create-escrow-key.js';
import type { SavedEscrowKey } from '../components/escrow-password-form.js';
import { RegisterBitcoinKey } from '../components/register-bitcoin-key.js';
import { RegisterSolanaKey } from '../components/register-solana-key.js';
import { RestoreEscrowKey } from '../components/restore-escrow-key.js';

type Flow = 'idle' | 'choose' | 'create' | 'restore';

/** `/settings/escrow-key`: the user's non-custodial escrow key, created or restored in this browser. */
export function EscrowKeyRoute() {
  const escrowKey = useEscrowKey();
  const [flow, setFlow] = useState<Flow>('idle');
  const [saved, setSaved] = useState<SavedEscrowKey>();
  const finish = (key: SavedEscrowKey) => {
    setSaved(key);
    setFlow('idle');
  };
  const start = (next: Flow) => {
    setSaved(undefined);
    setFlow(next);
  };

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Escrow key" />
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Escrow key</h1>
        <p className="mt-2 text-muted">
          Your escrow key signs the payouts of your escrows, as one of the two approvals each one needs. It is
          created in your browser and stored encrypted with your escrow password, so Covenant cannot read it.
        </p>
      </div>
      {saved ? (
        <div role="status" className="rounded-md border border-border bg-surface p-4 text-sm">
          <p className="font-medium">Your escrow key is saved.</p>
          <p className="mt-1 text-muted">
            Ethereum signing address:{' '}
            <code className="break-all font-mono text-foreground">{saved.ethereumAddress}</code>
          </p>
          {saved.bitcoinPublicKey ? (
            <p className="mt-1 text-muted">
              Bitcoin signing key:{' '}
              <code className="break-all font-mono text-foreground">{saved.bitcoinPublicKey}</code>
            </p>
          ) : null}
          {saved.solanaAddress ? (
            <p className="mt-1 text-muted">
              Solana signing address:{' '}
              <code className="break-all font-mono text-foreground">{saved.solanaAddress}</code>
            </p>
          ) : null}
        </div>
      ) : null}
      {escrowKey.isPending ? (
        <PageSpinner label="Loading your escrow key" />
      ) : escrowKey.isError ? (
        <LoadError onRetry={() => void escrowKey.refetch()}>Your escrow key could not be loaded.</LoadError>
      ) : (
        <Card className="space-y-4">
          {flow === 'create' ? (
            <CreateEscrowKey onSaved={finish} onCancel={() => setFlow('idle')} />
          ) : flow === 'restore' ? (
            <RestoreEscrowKey onSaved={finish} onCancel={() => setFlow('idle')} />
          ) : escrowKey.data && flow === 'idle' ? (
            <CurrentEscrowKey record={escrowKey.data} onReplace={() => start('choose')} />
          ) : (
            <ChooseHow
              replacing={Boolean(escrowKey.data)}
              onChoose={start}
              onCancel={() => setFlow('idle')}
            />
          )}
        </Card>
      )}
    </div>
  );
}

function CurrentEscrowKey({ record, onReplace }: { record: EscrowKeyRecord; onReplace: () => void }) {
  return (
    <>
      <h2 className="font-semibold text-lg">Your escrow key</h2>
      <dl className="grid gap-3 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-6">
        <dt className="text-muted">Ethereum signing address</dt>
        <dd>
          <code className="break-all font-mono">{record.ethereum_address}</code>
        </dd>
        <dt className="text-muted">Created</dt>
        <dd>
          <time dateTime={record.created_at}>{new Date(record.created_at).toLocaleDateString()}</time>
        </dd>
      </dl>
      <RegisterBitcoinKey />
      <RegisterSolanaKey />
      <Button variant="outline" onClick={onReplace}>
        Replace escrow key
      </Button>
    </>
  );
}

function ChooseHow({
  replacing,
  onChoose,
  onCancel,
}: {
  replacing: boolean;
  onChoose: (flow: Flow) => void;
  onCancel: () => void;
}) {
  return (
    <>
      <h2 className="font-semibold text-lg">
        {replacing ? 'Replace your escrow key' : 'Set up your escrow key'}
      </h2>
      <p className="text-muted text-sm">
        {replacing
          ? 'The new key becomes your Ethereum signing address (and your Bitcoin and Solana keys where those chains are offered). While an escrow you sign for on any chain is open, the old key stays.'
          : 'You need an escrow key before you can fund or settle an escrow.'}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => onChoose('create')}>Create escrow key</Button>
        <Button variant="outline" onClick={() => onChoose('restore')}>
          Restore from backup phrase
        </Button>
        {replacing ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </>
  );
}
