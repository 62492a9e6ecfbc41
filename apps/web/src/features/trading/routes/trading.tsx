import { PageTitle } from '@/components/page-title.js';
import { useAuth } from '@/lib/auth.js';

// Only reached through the router's guard, so a user is always present here.
export function TradingRoute() {
  const { user } = useAuth();
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6">
      <PageTitle title="Trading" />
      <h1 className="font-semibold text-3xl tracking-tight">Trading</h1>
      <p className="mt-3 text-muted">
        Signed in as <span className="font-medium text-foreground">{user?.email}</span>.
      </p>
      <p className="mt-6 max-w-2xl text-muted">
        The trading desk, where you will create trades, find verified partners and exchange CIS documents, is
        not open yet.
      </p>
    </div>
  );
}
