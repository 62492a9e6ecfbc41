import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import type { StaffAlert } from './get-staff-alerts.js';

export type DealParty = 'buyer' | 'seller';

export interface ForeignDepositReturn {
  alert: StaffAlert;
  /** The party's address in the leg's terms the deposit goes back to. */
  to: string;
  return_transaction: string;
}

/** `POST /staff/alerts/{id}/return-foreign-deposit`: compliance or an admin sends a held wrong-token deposit back. */
export function returnForeignDeposit(api: ApiClient, id: string, party: DealParty) {
  return api.post<ForeignDepositReturn>(`/staff/alerts/${encodeURIComponent(id)}/return-foreign-deposit`, {
    body: { party },
  });
}

/** Returns a held deposit to a party, then reads the alerts again (its alert is resolved by it). */
export function useReturnForeignDeposit(id: string) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (party: DealParty) => returnForeignDeposit(api, id, party),
    onSuccess: (result, party) =>
      toast.success(`Deposit on its way back to the ${party}`, {
        description: `To ${result.to}, transaction ${result.return_transaction}`,
      }),
    onError: (error) => toast.error('Not returned', { description: error.message }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['staff-alerts'] }),
  });
}
