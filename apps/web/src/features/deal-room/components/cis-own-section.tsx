import type { DealCisEntry } from '@covenant/domain';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { paths } from '@/config/paths.js';
import { useCisSheets } from '@/features/trading/api/cis-sheets.js';
import { ApiError } from '@/lib/api-client.js';
import { useAttachDealCis } from '../api/cis-attach.js';
import { CisReviewStatus } from './cis-review-status.js';

/** The viewer's own CIS on the deal: which sheet is attached, its review, and attaching another. */
export function CisOwnSection({
  dealId,
  entry,
  canAct,
}: {
  dealId: string;
  entry: DealCisEntry | null;
  canAct: boolean;
}) {
  // An approved sheet stays: the server refuses to swap it.
  const canAttach = canAct && entry?.status !== 'approved';
  return (
    <section className="space-y-3" aria-labelledby={`${dealId}-own-cis`}>
      <h3 id={`${dealId}-own-cis`} className="font-medium">
        Your CIS
      </h3>
      {entry ? (
        <div className="space-y-2">
          <p className="text-sm">{entry.cis.legal_name}</p>
          <CisReviewStatus entry={entry} />
        </div>
      ) : (
        <p className="text-muted text-sm">You have not attached a CIS to this deal yet.</p>
      )}
      {canAttach ? <AttachCis dealId={dealId} current={entry?.cis.id} /> : null}
    </section>
  );
}

function AttachCis({ dealId, current }: { dealId: string; current: string | undefined }) {
  const sheets = useCisSheets();
  const attach = useAttachDealCis(dealId);
  const [chosen, setChosen] = useState('');
  const id = useId();
  if (!sheets.data) return null;
  if (sheets.data.length === 0) {
    return (
      <p className="text-sm">
        You have no CIS yet.{' '}
        <Link to={paths.trading} className="text-primary underline-offset-4 hover:underline">
          Upload one in the CIS Documents tab of Trading
        </Link>
        , then attach it here.
      </p>
    );
  }
  const options = sheets.data.filter((sheet) => sheet.id !== current);
  if (options.length === 0) return null;
  const selected = chosen || options[0]!.id;
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        attach.mutate(selected, {
          onSuccess: () =>
            toast.success('CIS attached', { description: 'The other party can now review it.' }),
          onError: (error) =>
            toast.error('CIS not attached', {
              description: error instanceof ApiError ? error.message : 'Please try again.',
            }),
        });
      }}
    >
      <div className="min-w-64 flex-1 space-y-2">
        <Label htmlFor={`${id}-sheet`}>{current ? 'Replace with' : 'Attach one of your sheets'}</Label>
        <Select id={`${id}-sheet`} value={selected} onChange={(event) => setChosen(event.target.value)}>
          {options.map((sheet) => (
            <option key={sheet.id} value={sheet.id}>
              {sheet.legal_name} — {new Date(sheet.created_at).toLocaleDateString()}
            </option>
          ))}
        </Select>
      </div>
      <Button type="submit" disabled={attach.isPending}>
        {current ? 'Replace CIS' : 'Attach CIS'}
      </Button>
    </form>
  );
}
