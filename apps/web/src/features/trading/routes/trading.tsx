import { useState } from 'react';
import { PageTitle } from '@/components/page-title.js';
import { Card } from '@/components/ui/card.js';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.js';
import { useDeals } from '../api/get-deals.js';
import { usePartnerMatches } from '../api/get-partner-matches.js';
import { usePartners } from '../api/get-partners.js';
import { useProfile } from '../api/get-profile.js';
import { CisDocuments } from '../components/cis-documents.js';
import { CreateTradeForm } from '../components/create-trade-form.js';
import { FindPartners } from '../components/find-partners.js';
import { MyTrades } from '../components/my-trades.js';
import { SuggestedCounterparties } from '../components/suggested-counterparties.js';
import { emptyTradeDraft, type TradeDraft } from '../components/trade-draft.js';
import { TradingHero } from '../components/trading-hero.js';
import { useConsoleError } from '../components/use-console-error.js';

type Tab = 'create' | 'trades' | 'partners' | 'cis';

// Only reached through the router's guard, so a user is always present here.
export function TradingRoute() {
  const profile = useProfile();
  const deals = useDeals();
  const partners = usePartners();
  const matches = usePartnerMatches();
  const [tab, setTab] = useState<Tab>('create');
  // Held here so the form keeps what was typed while the trader looks at other tabs.
  const [draft, setDraft] = useState<TradeDraft>(emptyTradeDraft);
  useConsoleError('Error fetching profile:', profile.error);
  useConsoleError('Error fetching trades:', deals.error);
  const dealList = deals.data?.pages.flatMap((page) => page.data);
  // Nothing is counted until the first page is in: "0" would say there are no trades.
  const dealCount = dealList ? `${dealList.length}${deals.hasNextPage ? '+' : ''}` : null;

  return (
    <div className="mx-auto w-full max-w-5xl space-y-8 px-4 py-12 sm:px-6">
      <PageTitle title="Trading" />
      <TradingHero profile={profile.data} failed={profile.isError} onRetry={() => void profile.refetch()} />
      <Tabs value={tab} onValueChange={(value) => setTab(value as Tab)} className="space-y-6">
        <TabsList>
          <TabsTrigger value="create">Create Trade</TabsTrigger>
          <TabsTrigger value="trades" className="inline-flex items-center justify-center gap-2">
            My Trades
            {dealCount !== null ? (
              <span
                className="rounded-full bg-primary/15 px-2 text-primary text-xs"
                data-testid="trade-count"
              >
                {dealCount}
              </span>
            ) : null}
          </TabsTrigger>
          <TabsTrigger value="partners">Find Partners</TabsTrigger>
          <TabsTrigger value="cis">CIS Documents</TabsTrigger>
        </TabsList>
        <Card>
          <TabsContent value="create">
            <CreateTradeForm
              draft={draft}
              onDraftChange={setDraft}
              profile={profile.data}
              partners={partners.data ?? []}
            />
          </TabsContent>
          <TabsContent value="trades">
            <MyTrades
              deals={dealList}
              failed={deals.isError}
              onRetry={() => void deals.refetch()}
              hasMore={deals.hasNextPage}
              loadingMore={deals.isFetchingNextPage}
              onLoadMore={() => void deals.fetchNextPage()}
              onCreateTrade={() => setTab('create')}
            />
          </TabsContent>
          <TabsContent value="partners" className="space-y-8">
            <SuggestedCounterparties
              matches={matches.data}
              failed={matches.isError}
              onRetry={() => void matches.refetch()}
              onSelect={(partner) => {
                setDraft({ ...draft, partnerId: partner.id });
                setTab('create');
              }}
              onOpenCis={() => setTab('cis')}
              optedOut={profile.data?.matching_opt_out ?? false}
            />
            <FindPartners
              partners={partners.data}
              failed={partners.isError}
              onRetry={() => void partners.refetch()}
              onSelect={(partner) => {
                setDraft({ ...draft, partnerId: partner.id });
                setTab('create');
              }}
            />
          </TabsContent>
          <TabsContent value="cis">
            <CisDocuments />
          </TabsContent>
        </Card>
      </Tabs>
    </div>
  );
}
