import type { Deal, Meeting } from '@covenant/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiClient, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';

/** A whole proposal: amounts are base-unit decimal strings, parsed exactly from what the trader typed. */
export type TermsProposal = {
  asset_chain: string;
  asset_symbol: string;
  asset_amount: string;
  stable_chain: string;
  stable_symbol: string;
  stable_amount: string;
  funding_deadline_hours: number;
  meeting_required: boolean;
  travel_location: string | null;
  /** With meeting_required: the meeting's place, coordinates, dates and who pays travel. */
  meeting?: Meeting;
};

/** `PUT /api/v1/deals/{id}/terms`: propose the next version of the terms (a counter-proposal by the other party). */
export function proposeDealTerms(api: ApiClient, dealId: string, proposal: TermsProposal): Promise<Deal> {
  return api.put<Deal>(`/deals/${encodeURIComponent(dealId)}/terms`, { body: proposal });
}

export function useProposeDealTerms(dealId: string) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (proposal: TermsProposal) => proposeDealTerms(api, dealId, proposal),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['deals', user?.id, dealId] }),
  });
}
