import { hashKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { escrowQueryKey } from './get-escrow.js';

/**
 * Refreshes the escrow whenever the deal itself is fetched again: the deal page's live updates refetch
 * the deal on each event (a deposit confirmed, a party confirmed), and the escrow should not wait for
 * its next poll to show it.
 */
export function useEscrowFollowsDeal(userId: string | undefined, dealId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!userId) return;
    const dealHash = hashKey(['deals', userId, dealId]);
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'success' && event.query.queryHash === dealHash) {
        void queryClient.invalidateQueries({ queryKey: escrowQueryKey(userId, dealId) });
      }
    });
  }, [queryClient, userId, dealId]);
}
