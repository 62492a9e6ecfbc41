import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useContext } from 'react';
import { Outlet } from 'react-router';
import { QueryOwnerContext } from '@/app/query-owner.js';

const clients = new WeakMap<object, QueryClient>();

/** The query client of this AppProvider, made on first use. */
function queryClientOf(owner: object): QueryClient {
  let client = clients.get(owner);
  if (!client) {
    client = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000, retry: 1 } } });
    clients.set(owner, client);
  }
  return client;
}

// Gives what it encloses (its children, or as a layout route the page below it) the app's query
// client: every page that reads or sends data is under one, as are the signed-in header's actions.
export function QueryScope({ children }: { children?: ReactNode }) {
  const client = queryClientOf(useContext(QueryOwnerContext));
  return <QueryClientProvider client={client}>{children ?? <Outlet />}</QueryClientProvider>;
}
