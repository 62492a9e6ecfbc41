import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { escrowQueryKey } from './get-escrow.js';
import { useEscrowFollowsDeal } from './use-escrow-follows-deal.js';

function setUp() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  renderHook(() => useEscrowFollowsDeal('user-1', 'deal-1'), { wrapper });
  queryClient.setQueryData(escrowQueryKey('user-1', 'deal-1'), { status: 'awaiting_funding' });
  const escrowInvalidated = () =>
    queryClient.getQueryState(escrowQueryKey('user-1', 'deal-1'))?.isInvalidated;
  return { queryClient, escrowInvalidated };
}

describe('useEscrowFollowsDeal', () => {
  it('marks the escrow stale each time the deal is fetched again', async () => {
    const { queryClient, escrowInvalidated } = setUp();
    expect(escrowInvalidated()).toBe(false);
    await queryClient.fetchQuery({
      queryKey: ['deals', 'user-1', 'deal-1'],
      queryFn: () => ({ id: 'deal-1' }),
    });
    expect(escrowInvalidated()).toBe(true);
  });

  it('ignores other deals and the deal’s own sub-queries', async () => {
    const { queryClient, escrowInvalidated } = setUp();
    await queryClient.fetchQuery({
      queryKey: ['deals', 'user-1', 'deal-2'],
      queryFn: () => ({ id: 'deal-2' }),
    });
    await queryClient.fetchQuery({ queryKey: ['deals', 'user-1', 'deal-1', 'terms'], queryFn: () => ({}) });
    expect(escrowInvalidated()).toBe(false);
  });
});
