import {
  assetChains,
  assetSymbolsFor,
  type DealTermsVersionTerms,
  isChain,
  isStableChain,
  isStableSymbol,
  isTokenSymbol,
  stableChains,
  stableSymbolsFor,
} from '@covenant/domain';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { FormField } from '@/components/ui/form-field.js';
import { listedChainsOf, useChains } from '@/features/escrow/api/get-chains.js';
import { MeetingFields } from '@/features/trading/components/meeting-fields.js';
import { SelectField } from '@/features/trading/components/select-field.js';
import { useProposeDealTerms } from '../api/terms-propose.js';
import {
  checkTermsDraft,
  draftFromTerms,
  type TermsDraft,
  type TermsDraftErrors,
} from './terms-counter-draft.js';
import { fieldErrors, termsErrorMessage } from './terms-error-message.js';

const asOptions = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** A new version of the terms, starting from the current one; sent whole, amounts exact in base units. */
export function TermsCounterForm({
  dealId,
  current,
  names,
  onDone,
}: {
  dealId: string;
  current: DealTermsVersionTerms;
  names: { buyer: string; seller: string };
  onDone: () => void;
}) {
  const propose = useProposeDealTerms(dealId);
  // Only the chains GET /api/v1/chains lists: a version with a leg elsewhere would be refused.
  const chains = useChains(true);
  const [draft, setDraft] = useState<TermsDraft>(() => draftFromTerms(current));
  const [errors, setErrors] = useState<TermsDraftErrors>({});
  const update = (changes: Partial<TermsDraft>) => setDraft((previous) => ({ ...previous, ...changes }));
  const serverFields = fieldErrors(propose.error);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (propose.isPending) return;
    const check = checkTermsDraft(draft);
    if (!check.ok) {
      setErrors(check.errors);
      return;
    }
    setErrors({});
    propose.mutate(check.proposal, {
      onSuccess: (deal) => {
        toast.success(`Version ${deal.terms_version} proposed`);
        onDone();
      },
    });
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label="Counter-proposal">
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-3 font-medium text-muted text-sm">Asset (the buyer receives)</legend>
        <SelectField
          id="counter-asset-chain"
          label="Asset Chain"
          value={draft.assetChain}
          options={asOptions(listedChainsOf(assetChains, chains.data, draft.assetChain))}
          onChange={(event) => {
            const chain = event.target.value;
            if (!isChain(chain)) return;
            const symbols = assetSymbolsFor(chain);
            update({
              assetChain: chain,
              assetSymbol: symbols.includes(draft.assetSymbol) ? draft.assetSymbol : (symbols[0] ?? 'BTC'),
            });
          }}
        />
        <SelectField
          id="counter-asset-symbol"
          label="Asset Symbol"
          value={draft.assetSymbol}
          options={asOptions(assetSymbolsFor(draft.assetChain))}
          onChange={(event) =>
            isTokenSymbol(event.target.value) && update({ assetSymbol: event.target.value })
          }
        />
        <div className="space-y-2">
          <FormField
            id="counter-asset-amount"
            label="Asset Amount"
            inputMode="decimal"
            value={draft.assetAmount}
            aria-invalid={Boolean(errors.assetAmount)}
            aria-describedby="counter-asset-amount-error"
            onChange={(event) => update({ assetAmount: event.target.value })}
          />
          <FieldError
            id="counter-asset-amount-error"
            message={errors.assetAmount ?? serverFields.asset_amount}
          />
        </div>
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-3 font-medium text-muted text-sm">Stablecoin (the seller receives)</legend>
        <SelectField
          id="counter-stable-chain"
          label="Stable Chain"
          value={draft.stableChain}
          options={asOptions(listedChainsOf(stableChains, chains.data, draft.stableChain))}
          onChange={(event) => {
            const chain = event.target.value;
            if (!isStableChain(chain)) return;
            const symbols = stableSymbolsFor(chain);
            update({
              stableChain: chain,
              stableSymbol: symbols.includes(draft.stableSymbol)
                ? draft.stableSymbol
                : (symbols[0] ?? 'USDC'),
            });
          }}
        />
        <SelectField
          id="counter-stable-symbol"
          label="Stable Symbol"
          value={draft.stableSymbol}
          options={asOptions(stableSymbolsFor(draft.stableChain))}
          onChange={(event) =>
            isStableSymbol(event.target.value) && update({ stableSymbol: event.target.value })
          }
        />
        <div className="space-y-2">
          <FormField
            id="counter-stable-amount"
            label="Stable Amount"
            inputMode="decimal"
            value={draft.stableAmount}
            aria-invalid={Boolean(errors.stableAmount)}
            aria-describedby="counter-stable-amount-error"
            onChange={(event) => update({ stableAmount: event.target.value })}
          />
          <FieldError
            id="counter-stable-amount-error"
            message={errors.stableAmount ?? serverFields.stable_amount}
          />
        </div>
      </fieldset>
      <div className="space-y-2">
        <FormField
          id="counter-funding-deadline"
          label="Funding deadline (hours, 1–168)"
          inputMode="numeric"
          value={draft.fundingDeadlineHours}
          aria-invalid={Boolean(errors.fundingDeadlineHours)}
          aria-describedby="counter-funding-deadline-error"
          onChange={(event) => update({ fundingDeadlineHours: event.target.value })}
        />
        <FieldError
          id="counter-funding-deadline-error"
          message={errors.fundingDeadlineHours ?? serverFields.funding_deadline_hours}
        />
      </div>
      <label htmlFor="counter-meeting-required" className="flex items-center gap-2 text-sm">
        <input
          id="counter-meeting-required"
          type="checkbox"
          className="size-4 accent-primary"
          checked={draft.meetingRequired}
          onChange={(event) => update({ meetingRequired: event.target.checked })}
        />
        Require in-person meeting
      </label>
      {draft.meetingRequired && (
        <MeetingFields
          idPrefix="counter-meeting"
          draft={draft.meeting}
          errors={errors.meeting ?? {}}
          onChange={(changes) => update({ meeting: { ...draft.meeting, ...changes } })}
        />
      )}
      {propose.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {termsErrorMessage(propose.error, names)}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={propose.isPending}>
          {propose.isPending ? 'Sending...' : 'Send proposal'}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
