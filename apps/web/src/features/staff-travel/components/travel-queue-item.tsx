import type { StaffTravelItem } from '@covenant/domain';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { Label } from '@/components/ui/label.js';
import { useApiClient } from '@/lib/api-client.js';
import { useAttachTravelFile } from '../api/attach-travel-file.js';
import { getTravelFile } from '../api/get-travel-file.js';
import { useMarkTravelBooked } from '../api/mark-travel-booked.js';
import { formatStableAmount } from './stable-amount.js';
import { TravelQuoteForm } from './travel-quote-form.js';

const kindNames: Record<StaffTravelItem['kind'], string> = {
  flight: 'Flight',
  hotel: 'Hotel',
  ground: 'Ground transport',
};

// The server answers only PDF, PNG or JPEG (checked by content on upload).
const extensions: Record<string, string> = {
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
};

const statusNames: Record<StaffTravelItem['status'], string> = {
  requested: 'Waiting for a quote',
  quoted: 'Quoted, waiting for both approvals',
  approved: 'Approved, payout on its way',
  paid: 'Paid, to be booked',
  booked: 'Booked',
  cancelled: 'Cancelled',
};

/**
 * One request of the queue: what was asked, for which deal and traveller; the quote form while the
 * item is open, the file (quote or booking confirmation), and "Mark booked" once the payout is paid.
 */
export function TravelQueueItem({ item }: { item: StaffTravelItem }) {
  const id = useId();
  const api = useApiClient();
  const attach = useAttachTravelFile(item.id);
  const booked = useMarkTravelBooked(item.id);
  const [file, setFile] = useState<File>();
  const open = item.status === 'requested' || item.status === 'quoted';
  const traveller = `${item.traveller_username ?? item.traveller} (${item.traveller})`;

  const download = async () => {
    try {
      const blob = await getTravelFile(api, item.id);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `travel-${item.kind}-${item.id}${extensions[blob.type] ?? ''}`;
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      toast.error('The file could not be downloaded', { description: (error as Error).message });
    }
  };

  const upload = () => {
    if (!file) return;
    attach.mutate(file, {
      onSuccess: () => {
        toast.success('File attached', { description: file.name });
        setFile(undefined);
      },
      onError: (error) => toast.error('The file was not attached', { description: error.message }),
    });
  };

  return (
    <li>
      <Card className="space-y-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="font-semibold text-lg">
            {kindNames[item.kind]} for {traveller}
          </h2>
          <span className="text-muted text-sm">{statusNames[item.status]}</span>
        </div>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-muted">Deal</dt>
          <dd className="break-all">{item.deal.id}</dd>
          <dt className="text-muted">Paid in</dt>
          <dd>
            {item.deal.stable_symbol} on {item.deal.stable_chain}
          </dd>
          <dt className="text-muted">Meeting place</dt>
          <dd>{item.deal.travel_location ?? '—'}</dd>
          <dt className="text-muted">Requested</dt>
          <dd>
            {new Date(item.created_at).toLocaleString()} by the {item.requested_by}
          </dd>
          {item.quote && (
            <>
              <dt className="text-muted">Quote</dt>
              <dd>
                Version {item.quote.version}: {item.quote.provider},{' '}
                {formatStableAmount(item.quote.amount, item.quote.symbol)}; approved by{' '}
                {item.approved_by.length > 0 ? item.approved_by.join(' and ') : 'nobody yet'}
              </dd>
            </>
          )}
        </dl>
        <p className="whitespace-pre-wrap rounded-md bg-surface p-3 text-sm">{item.details}</p>
        {open && <TravelQuoteForm item={item} />}
        {item.status !== 'cancelled' && (
          <div className="flex flex-wrap items-end gap-3">
            <div className="space-y-1">
              <Label htmlFor={`${id}-file`}>Quote or booking confirmation (PDF, PNG or JPEG)</Label>
              <input
                id={`${id}-file`}
                type="file"
                accept="application/pdf,image/png,image/jpeg"
                className="block text-sm"
                onChange={(event) => setFile(event.target.files?.[0])}
              />
            </div>
            <Button variant="outline" onClick={upload} disabled={!file || attach.isPending}>
              Upload file
            </Button>
            {item.quote?.has_file && (
              <Button variant="outline" onClick={() => void download()}>
                Download file
              </Button>
            )}
          </div>
        )}
        {item.status === 'paid' && (
          <Button
            onClick={() =>
              booked.mutate(undefined, {
                onSuccess: () => toast.success('Marked booked'),
                onError: (error) => toast.error('Not marked booked', { description: error.message }),
              })
            }
            disabled={booked.isPending}
          >
            Mark booked
          </Button>
        )}
      </Card>
    </li>
  );
}
