import {
  assetChains,
  assetSymbolsFor,
  type Chain,
  chainNotAvailableMessage,
  isChain,
  isStableChain,
  isStableSymbol,
  isTokenSymbol,
  type StableChain,
  stableChains,
  stableSymbolsFor,
  tierLabels,
} from '@covenant/domain';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FormField } from '@/components/ui/form-field.js';
import { listedChainsOf, useChains } from '@/features/escrow/api/get-chains.js';
import { useCreateDeal } from '../api/create-deal.js';
import type { Partner } from '../api/get-partners.js';
import type { Profile } from '../api/get-profile.js';
import { checkTradeDraft } from './check-trade-draft.js';
import { describeCreateDealError } from './describe-create-deal-error.js';
import type { MeetingDraftField } from './meeting-draft.js';
import { MeetingFields } from './meeting-fields.js';
import { partnerName } from './partner-name.js';
import { SelectField } from './select-field.js';
import { emptyTradeDraft, type TradeDraft } from './trade-draft.js';

type CreateTradeFormProps = {
  draft: TradeDraft;
  onDraftChange: (draft: TradeDraft) => void;
  profile: Profile | undefined;
  partners: Partner[];
};

const asOptions = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

export function CreateTradeForm({ draft, onDraftChange, profile, partners }: CreateTradeFormProps) {
  const createDeal = useCreateDeal();
  // Only the chains GET /api/v1/chains lists: a deal elsewhere would be refused (its escrow is not built).
  const chains = useChains(true);
  const listed = chains.data ? new Set(chains.data.map((chain) => chain.chain)) : null;
  const update = (changes: Partial<TradeDraft>) => onDraftChange({ ...draft, ...changes });
  const [meetingErrors, setMeetingErrors] = useState<Partial<Record<MeetingDraftField, string>>>({});

  // A symbol that does not live on the newly chosen chain gives way to the chain's first one.
  const changeAssetChain = (chain: Chain) => {
    const symbols = assetSymbolsFor(chain);
    update({
      assetChain: chain,
      assetSymbol: symbols.includes(draft.assetSymbol)
        ? draft.assetSymbol
        : (symbols[0] ?? draft.assetSymbol),
    });
  };
  const changeStableChain = (chain: StableChain) => {
    const symbols = stableSymbolsFor(chain);
    update({
      stableChain: chain,
      stableSymbol: symbols.includes(draft.stableSymbol)
        ? draft.stableSymbol
        : (symbols[0] ?? draft.stableSymbol),
    });
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (createDeal.isPending) return;
    const unlisted = [draft.assetChain, draft.stableChain].find((chain) => listed && !listed.has(chain));
    if (unlisted) {
      toast.error('Chain Not Available', { description: chainNotAvailableMessage(unlisted) });
      return;
    }
    const check = checkTradeDraft(draft, profile);
    setMeetingErrors(check.ok ? {} : (check.meetingErrors ?? {}));
    if (!check.ok) {
      toast.error(check.title, { description: check.message });
      return;
    }
    createDeal.mutate(check.input, {
      onSuccess: () => {
        toast.success('Trade Created', { description: 'Your trade has been created as a draft.' });
        onDraftChange({ ...emptyTradeDraft, assetChain: draft.assetChain, assetSymbol: draft.assetSymbol });
      },
      onError: (error) => {
        const { title, message } = describeCreateDealError(error);
        toast.error(title, { description: message });
      },
    });
  };

  const partnerOptions = [
    { value: '', label: 'Select a trading partner' },
    ...partners.map((partner) => ({
      value: partner.id,
      label: `${partnerName(partner)} (${tierLabels[partner.trading_tier]} Tier)`,
    })),
  ];

  // noValidate: the spec's checks and toasts decide, not the browser's own min/max/step bubbles.
  return (
    <form noValidate onSubmit={submit} className="space-y-6" aria-label="Create Trade">
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-3 font-medium text-muted text-sm">You receive</legend>
        <SelectField
          id="asset-chain"
          label="Asset Chain"
          value={draft.assetChain}
          options={asOptions(listedChainsOf(assetChains, chains.data, draft.assetChain))}
          onChange={(event) => isChain(event.target.value) && changeAssetChain(event.target.value)}
        />
        <SelectField
          id="asset-symbol"
          label="Asset Symbol"
          value={draft.assetSymbol}
          options={asOptions(assetSymbolsFor(draft.assetChain))}
          onChange={(event) =>
            isTokenSymbol(event.target.value) && update({ assetSymbol: event.target.value })
          }
        />
        <FormField
          id="asset-amount"
          label="Asset Amount"
          type="number"
          inputMode="decimal"
          step="0.00000001"
          min="0"
          max="1000000"
          placeholder="0.00000000"
          value={draft.assetAmount}
          onChange={(event) => update({ assetAmount: event.target.value })}
        />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-3 font-medium text-muted text-sm">You pay</legend>
        <SelectField
          id="stable-chain"
          label="Stable Chain"
          value={draft.stableChain}
          options={asOptions(listedChainsOf(stableChains, chains.data, draft.stableChain))}
          onChange={(event) => isStableChain(event.target.value) && changeStableChain(event.target.value)}
        />
        <SelectField
          id="stable-symbol"
          label="Stable Symbol"
          value={draft.stableSymbol}
          options={asOptions(stableSymbolsFor(draft.stableChain))}
          onChange={(event) =>
            isStableSymbol(event.target.value) && update({ stableSymbol: event.target.value })
          }
        />
        <FormField
          id="stable-amount"
          label="Stable Amount"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          max="1000000"
          placeholder="0.00"
          value={draft.stableAmount}
          onChange={(event) => update({ stableAmount: event.target.value })}
        />
      </fieldset>
      <SelectField
        id="trading-partner"
        label="Trading Partner"
        value={draft.partnerId}
        options={partnerOptions}
        onChange={(event) => update({ partnerId: event.target.value })}
      />
      <div className="space-y-4">
        <label htmlFor="meeting-required" className="flex items-center gap-2 text-sm">
          <input
            id="meeting-required"
            type="checkbox"
            className="size-4 accent-primary"
            checked={draft.meetingRequired}
            onChange={(event) => update({ meetingRequired: event.target.checked })}
          />
          Require in-person meeting
        </label>
        {draft.meetingRequired && (
          <MeetingFields
            idPrefix="meeting"
            draft={draft.meeting}
            errors={meetingErrors}
            onChange={(changes) => update({ meeting: { ...draft.meeting, ...changes } })}
          />
        )}
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={createDeal.isPending}>
        {createDeal.isPending ? 'Creating Trade...' : 'Create Trade'}
      </Button>
    </form>
  );
}
