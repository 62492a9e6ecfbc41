import {
  type BitcoinNetwork,
  type Chain,
  type DealParty,
  type DealPartyAddresses,
  partyAddressChains,
  validateChainAddress,
} from '@covenant/domain';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { FormField } from '@/components/ui/form-field.js';
import { useSetDealAddresses } from '../api/terms-addresses.js';
import { fieldErrors, termsErrorMessage } from './terms-error-message.js';

type Field = 'payout_address' | 'refund_address';

/**
 * The viewer's own payout address (on the chain it receives on) and refund address (on the chain it
 * deposits from), checked with the same rules as the server before they are sent.
 */
export function TermsAddressesForm({
  dealId,
  party,
  chains,
  stored,
  bitcoinNetwork,
  canEdit,
  names,
}: {
  dealId: string;
  party: DealParty;
  chains: { asset_chain: Chain; stable_chain: Chain };
  stored: DealPartyAddresses | null;
  bitcoinNetwork: BitcoinNetwork;
  canEdit: boolean;
  names: { buyer: string; seller: string };
}) {
  const save = useSetDealAddresses(dealId);
  const [values, setValues] = useState<DealPartyAddresses>(
    stored ?? { payout_address: '', refund_address: '' },
  );
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const on = partyAddressChains(party, chains);
  const fieldChain: Record<Field, Chain> = { payout_address: on.payout, refund_address: on.refund };
  const serverFields = fieldErrors(save.error);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    const found: Partial<Record<Field, string>> = {};
    for (const field of ['payout_address', 'refund_address'] as const) {
      const address = values[field].trim();
      const check = validateChainAddress(fieldChain[field], address, { bitcoinNetwork });
      if (!check.ok) found[field] = `${check.reason}.`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(
      { payout_address: values.payout_address.trim(), refund_address: values.refund_address.trim() },
      { onSuccess: () => toast.success('Your addresses are saved') },
    );
  };

  const field = (name: Field, label: string) => (
    <div className="space-y-2">
      <FormField
        id={`terms-${name}`}
        label={label}
        value={values[name]}
        disabled={!canEdit}
        spellCheck={false}
        autoComplete="off"
        className="font-mono"
        aria-invalid={Boolean(errors[name] ?? serverFields[name])}
        aria-describedby={`terms-${name}-error`}
        onChange={(event) => setValues((previous) => ({ ...previous, [name]: event.target.value }))}
      />
      <FieldError id={`terms-${name}-error`} message={errors[name] ?? serverFields[name]} />
    </div>
  );

  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label="Your addresses">
      {field('payout_address', `Payout address (${on.payout}) — where you are paid`)}
      {field('refund_address', `Refund address (${on.refund}) — where your deposit returns`)}
      {save.isError && Object.keys(serverFields).length === 0 ? (
        <p role="alert" className="text-destructive text-sm">
          {termsErrorMessage(save.error, names)}
        </p>
      ) : null}
      {canEdit ? (
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save addresses'}
        </Button>
      ) : null}
    </form>
  );
}
