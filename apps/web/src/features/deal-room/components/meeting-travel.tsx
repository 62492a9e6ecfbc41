import { type DealParty, type TravelKindName, type TravelPayer, travelKinds } from '@covenant/domain';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Label } from '@/components/ui/label.js';
import { Spinner } from '@/components/ui/spinner.js';
import { Textarea } from '@/components/ui/textarea.js';
import { formatDealAmount } from '@/features/trading/components/format-deal-amount.js';
import { QueryErrorState } from '@/features/trading/components/query-error-state.js';
import { SelectField } from '@/features/trading/components/select-field.js';
import { useCancelTravel } from '../api/travel-cancel.js';
import { type TravelItem, useDealTravel } from '../api/travel-list.js';
import { useRequestTravel } from '../api/travel-request.js';
import { TravelApproval } from './travel-approval.js';

const kindLabels: Record<TravelKindName, string> = {
  flight: 'Flight',
  hotel: 'Hotel',
  ground: 'Ground transport',
};
/** Statuses in which a request can still be withdrawn: nothing has been paid for it. */
const cancellable = new Set(['requested', 'quoted']);
const maxDetails = 2000;
const isKind = (value: string): value is TravelKindName => (travelKinds as readonly string[]).includes(value);

/**
 * The meeting's travel: each item (flight, hotel, ground transport) with its status and the
 * concierge's quote, a form to request one, and withdrawal of a request not paid yet. A quote is paid
 * from the stable leg's escrow only once both parties approve it.
 */
export function MeetingTravel({
  dealId,
  names,
  viewer,
  travelPaidBy,
}: {
  dealId: string;
  names: Record<DealParty, string>;
  viewer: DealParty;
  travelPaidBy: TravelPayer;
}) {
  const travel = useDealTravel(dealId);
  const [requesting, setRequesting] = useState(false);
  return (
    <section aria-labelledby="meeting-travel-heading" className="space-y-3 border-border border-t pt-4">
      <h3 id="meeting-travel-heading" className="font-medium">
        Travel
      </h3>
      {travel.isError ? (
        <QueryErrorState
          title="The travel requests could not be loaded."
          onRetry={() => void travel.refetch()}
        />
      ) : !travel.data ? (
        <Spinner label="Loading the travel requests" />
      ) : travel.data.data.length === 0 ? (
        <p className="text-muted text-sm">
          No travel requested yet. Request a flight, a hotel or ground transport: a concierge quotes it, and
          it is paid from the escrow once both of you approve the quote.
        </p>
      ) : (
        <ul className="space-y-3" aria-label="Travel requests">
          {travel.data.data.map((item) => (
            <TravelItemRow
              key={item.id}
              dealId={dealId}
              item={item}
              names={names}
              viewer={viewer}
              travelPaidBy={travelPaidBy}
            />
          ))}
        </ul>
      )}
      {requesting ? (
        <TravelRequestForm
          dealId={dealId}
          names={names}
          viewer={viewer}
          onDone={() => setRequesting(false)}
        />
      ) : (
        <Button variant="outline" className="w-full sm:w-auto" onClick={() => setRequesting(true)}>
          Request travel
        </Button>
      )}
    </section>
  );
}

function TravelItemRow({
  dealId,
  item,
  names,
  viewer,
  travelPaidBy,
}: {
  dealId: string;
  item: TravelItem;
  names: Record<DealParty, string>;
  viewer: DealParty;
  travelPaidBy: TravelPayer;
}) {
  const cancel = useCancelTravel(dealId);
  const { quote } = item;
  return (
    <li className="space-y-1 rounded-lg border border-border p-3 text-sm">
      <p className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-medium">
          {kindLabels[item.kind]} for {names[item.traveller]}
        </span>
        <span className="text-muted text-xs uppercase tracking-wide">{item.status}</span>
      </p>
      <p className="whitespace-pre-wrap break-words">{item.details}</p>
      {quote ? (
        <p>
          Quote: {quote.provider}, {quote.description}: {formatDealAmount(quote.amount, quote.symbol)} on{' '}
          {quote.chain}, paid to <span className="break-all font-mono">{quote.payee_address}</span>
          {item.approved_by.length > 0 &&
            ` · approved by ${item.approved_by.map((party) => names[party]).join(' and ')}`}
        </p>
      ) : (
        <p className="text-muted">Waiting for the concierge’s quote.</p>
      )}
      <TravelApproval dealId={dealId} item={item} viewer={viewer} travelPaidBy={travelPaidBy} />
      {item.transaction_hash && (
        <p>
          Paid: <span className="break-all font-mono">{item.transaction_hash}</span>
        </p>
      )}
      {cancellable.has(item.status) && (
        <Button
          variant="ghost"
          size="sm"
          disabled={cancel.isPending}
          onClick={() =>
            cancel.mutate(item.id, {
              onSuccess: () => toast.success('Travel request withdrawn'),
              onError: (error) =>
                toast.error('The request was not withdrawn', { description: error.message }),
            })
          }
        >
          Withdraw request
        </Button>
      )}
    </li>
  );
}

function TravelRequestForm({
  dealId,
  names,
  viewer,
  onDone,
}: {
  dealId: string;
  names: Record<DealParty, string>;
  viewer: DealParty;
  onDone: () => void;
}) {
  const id = useId();
  const request = useRequestTravel(dealId);
  const [kind, setKind] = useState<TravelKindName>('flight');
  const [traveller, setTraveller] = useState<DealParty>(viewer);
  const [details, setDetails] = useState('');
  const [problem, setProblem] = useState<string>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (request.isPending) return;
    const text = details.trim();
    if (!text) return setProblem('Say what to book: the dates, the route or the address, and any notes.');
    if (text.length > maxDetails) return setProblem(`At most ${maxDetails} characters.`);
    setProblem(undefined);
    request.mutate(
      { kind, traveller, details: text },
      {
        onSuccess: () => {
          toast.success('Travel requested', { description: 'A concierge will quote it.' });
          onDone();
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-3" aria-label="Request travel">
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          id={`${id}-kind`}
          label="What"
          value={kind}
          options={travelKinds.map((value) => ({ value, label: kindLabels[value] }))}
          onChange={(event) => isKind(event.target.value) && setKind(event.target.value)}
        />
        <SelectField
          id={`${id}-traveller`}
          label="Traveller"
          value={traveller}
          options={(['buyer', 'seller'] as const).map((party) => ({ value: party, label: names[party] }))}
          onChange={(event) => setTraveller(event.target.value === 'seller' ? 'seller' : 'buyer')}
        />
      </div>
      <div className="space-y-1">
        <Label htmlFor={`${id}-details`}>Details</Label>
        <Textarea
          id={`${id}-details`}
          value={details}
          maxLength={maxDetails}
          placeholder="Dates, route or address, notes"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-details-error` : undefined}
          onChange={(event) => setDetails(event.target.value)}
        />
        <FieldError id={`${id}-details-error`} message={problem} />
      </div>
      {request.isError && (
        <p role="alert" className="text-destructive text-sm">
          {request.error.message}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={request.isPending}>
          {request.isPending ? 'Sending…' : 'Send request'}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
