import { useState } from 'react';
import { Button } from '@/components/ui/button.js';
import type { StaffAlert } from '../api/get-staff-alerts.js';
import { type DealParty, useReturnForeignDeposit } from '../api/return-foreign-deposit.js';

/**
 * Whether staff may send back the deposit an alert names: a wrong-token deposit the engine held (it
 * could not tie the sending address to either party: `sender` null), or one whose return failed
 * (reverted, never mined, or refused by the node).
 */
export function isReturnableForeignDeposit(alert: StaffAlert): boolean {
  if (!('log_index' in alert.details)) return false;
  if (alert.kind === 'wrong_token_deposit') return alert.details.sender === null;
  return alert.kind === 'foreign_asset_return_failed';
}

/**
 * "Return to the buyer" / "Return to the seller" for a held wrong-token deposit or one whose return
 * failed, each asking to be confirmed first: the deposit goes to that party's address in the leg's
 * terms and cannot be called back. For compliance and admins, once the party has shown the deposit
 * was theirs (for a failed return, the sender the engine named is in the details).
 */
export function ReturnForeignDeposit({ alert }: { alert: StaffAlert }) {
  const [party, setParty] = useState<DealParty | null>(null);
  const returning = useReturnForeignDeposit(alert.id);

  if (party === null) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-sm">
          {alert.kind === 'foreign_asset_return_failed'
            ? 'Its return did not arrive; the deposit is still in the escrow. Send it again:'
            : 'Sent from an address of neither party. Once one shows it was theirs:'}
        </p>
        <Button size="sm" variant="outline" onClick={() => setParty('buyer')}>
          Return to the buyer
        </Button>
        <Button size="sm" variant="outline" onClick={() => setParty('seller')}>
          Return to the seller
        </Button>
      </div>
    );
  }
  return (
    <fieldset aria-label="Confirm the return" className="space-y-2 rounded-md border border-border p-3">
      <p className="text-sm">
        Send this deposit to the {party}’s address in the leg’s terms? It cannot be called back.
      </p>
      <div className="flex gap-2">
        <Button size="sm" disabled={returning.isPending} onClick={() => returning.mutate(party)}>
          Confirm return to the {party}
        </Button>
        <Button size="sm" variant="outline" disabled={returning.isPending} onClick={() => setParty(null)}>
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}
