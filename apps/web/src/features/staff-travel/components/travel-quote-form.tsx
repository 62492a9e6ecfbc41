import { type StaffTravelItem, type TravelQuoteRequest, travelQuoteRequestSchema } from '@covenant/domain';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Textarea } from '@/components/ui/textarea.js';
import { ApiError } from '@/lib/api-client.js';
import { useQuoteTravelItem } from '../api/quote-travel-item.js';
import { stableValue, toStableBaseUnits } from './stable-amount.js';

type Field = keyof TravelQuoteRequest;

/**
 * The concierge's quote for an item: provider, what it covers, the price typed in whole tokens of
 * the deal's stable token (converted to base units exactly) and the provider's address on the stable
 * chain, which the server checks for that chain.
 */
export function TravelQuoteForm({ item }: { item: StaffTravelItem }) {
  const id = useId();
  const { stable_symbol: symbol, stable_chain: chain } = item.deal;
  const [values, setValues] = useState({
    provider: item.quote?.provider ?? '',
    description: item.quote?.description ?? '',
    amount: item.quote ? stableValue(item.quote.amount, symbol) : '',
    payee_address: item.quote?.payee_address ?? '',
  });
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const quote = useQuoteTravelItem(item.id);

  const submit = () => {
    const amount = toStableBaseUnits(values.amount, symbol);
    const parsed = travelQuoteRequestSchema.safeParse({ ...values, amount: amount ?? '' });
    const found: Partial<Record<Field, string>> = {};
    for (const issue of parsed.error?.issues ?? []) found[issue.path[0] as Field] ??= issue.message;
    if (amount === null) found.amount = `Enter a price above zero in ${symbol}, e.g. 980.50`;
    setProblems(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    quote.mutate(parsed.data, {
      onSuccess: (quoted) =>
        toast.success('Quote sent to the parties', { description: `Version ${quoted.quote?.version}` }),
      onError: (error) => {
        const fields = error instanceof ApiError ? error.details?.fields : undefined;
        if (fields && typeof fields === 'object') setProblems(fields as Partial<Record<Field, string>>);
        toast.error('The quote was not saved', { description: error.message });
      },
    });
  };

  const field = (name: Field) => ({
    id: `${id}-${name}`,
    value: values[name],
    'aria-invalid': problems[name] ? true : undefined,
    'aria-describedby': problems[name] ? `${id}-${name}-error` : undefined,
    onChange: (event: { target: { value: string } }) =>
      setValues((current) => ({ ...current, [name]: event.target.value })),
  });

  return (
    <form
      className="space-y-3"
      aria-label={`Quote for item ${item.id}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1">
          <Label htmlFor={`${id}-provider`}>Provider</Label>
          <Input {...field('provider')} maxLength={200} />
          <FieldError id={`${id}-provider-error`} message={problems.provider} />
        </div>
        <div className="space-y-1">
          <Label htmlFor={`${id}-amount`}>Price ({symbol})</Label>
          <Input {...field('amount')} inputMode="decimal" placeholder="980.50" />
          <FieldError id={`${id}-amount-error`} message={problems.amount} />
        </div>
      </div>
      <div className="space-y-1">
        <Label htmlFor={`${id}-description`}>What the quote covers</Label>
        <Textarea {...field('description')} rows={3} maxLength={2000} />
        <FieldError id={`${id}-description-error`} message={problems.description} />
      </div>
      <div className="space-y-1">
        <Label htmlFor={`${id}-payee_address`}>Provider’s address on {chain}</Label>
        <Input {...field('payee_address')} autoComplete="off" spellCheck={false} />
        <FieldError id={`${id}-payee_address-error`} message={problems.payee_address} />
      </div>
      <Button type="submit" disabled={quote.isPending}>
        {item.quote ? 'Send a new quote' : 'Send the quote'}
      </Button>
    </form>
  );
}
