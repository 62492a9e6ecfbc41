import { ArrowRight, BookOpen, ChevronDown } from 'lucide-react';
import { Accordion } from 'radix-ui';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { ContentPage } from '@/components/layouts/content-page.js';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.js';
import { paths } from '@/config/paths.js';
import { faqCategories } from '@/content/faq.js';
import { guides } from '@/content/guides.js';
import { LiveChatWidget } from '@/features/live-chat/components/live-chat-widget.js';
import { useScrollToHash } from '@/hooks/use-scroll-to-hash.js';
import { ChannelCard } from '../components/channel-card.js';
import { HelpSearch } from '../components/help-search.js';
import { supportChannels } from '../components/support-channels.js';

// Loaded with the Contact Support tab: the form and its validation are not needed to read answers.
const SupportTicketForm = lazy(async () => ({
  default: (await import('../components/support-ticket-form.js')).SupportTicketForm,
}));

const tabs = ['faq', 'guides', 'contact'] as const;
type Tab = (typeof tabs)[number];

const popularArticles = [
  {
    title: 'Fund the escrow: one deposit address per leg',
    to: `${paths.documentation}?tab=trading-guide#fund-escrow`,
  },
  { title: 'KYC verification and tiers', to: `${paths.documentation}?tab=getting-started#kyc-tiers` },
  {
    title: 'Automatic refund at the funding deadline',
    to: `${paths.documentation}?tab=trading-guide#refund-deadline`,
  },
  { title: 'Settlement and the 0.01% fee', to: `${paths.documentation}?tab=trading-guide#settlement-fee` },
  { title: 'Your escrow keys', to: `${paths.documentation}?tab=wallet-setup#escrow-keys` },
  { title: 'Recognise genuine messages', to: `${paths.documentation}?tab=security#phishing` },
];

export function HelpCenterRoute() {
  const [query, setQuery] = useState('');
  const [searchParams, setSearchParams] = useSearchParams();
  const { hash } = useLocation();
  const requested = searchParams.get('tab');
  const tab: Tab = tabs.find((candidate) => candidate === requested) ?? 'faq';
  // A link to one question (/help-center?tab=faq#faq-fees) opens it; afterwards the visitor decides.
  const [openQuestion, setOpenQuestion] = useState(hash.slice(1));
  const [linkedQuestion, setLinkedQuestion] = useState(hash);
  if (hash !== linkedQuestion) {
    setLinkedQuestion(hash);
    if (hash) setOpenQuestion(hash.slice(1));
  }
  useScrollToHash(tab);

  return (
    <ContentPage
      wide
      eyebrow="Support"
      title="Help Center"
      intro="Answers to common questions about accounts, trading, escrow and wallets, and the ways to reach our support team."
    >
      <HelpSearch query={query} onQueryChange={setQuery} />

      <Tabs
        value={tab}
        onValueChange={(value) =>
          setSearchParams({ tab: value }, { replace: true, preventScrollReset: true })
        }
        className="mt-12"
      >
        <TabsList aria-label="Help topics" className="max-w-xl">
          <TabsTrigger value="faq">FAQ</TabsTrigger>
          <TabsTrigger value="guides">Guides</TabsTrigger>
          <TabsTrigger value="contact">Contact Support</TabsTrigger>
        </TabsList>

        <TabsContent value="faq" className="mt-8">
          <h2 className="sr-only">Frequently asked questions</h2>
          <Accordion.Root
            type="single"
            collapsible
            value={openQuestion}
            onValueChange={setOpenQuestion}
            className="grid gap-10 lg:grid-cols-2"
          >
            {faqCategories.map((category) => (
              <section key={category.id} aria-labelledby={`faq-${category.id}-heading`}>
                <h3 id={`faq-${category.id}-heading`} className="font-semibold text-lg">
                  {category.title}
                </h3>
                <div className="mt-3 divide-y divide-border rounded-xl border border-border">
                  {category.items.map((item) => (
                    <Accordion.Item key={item.id} value={item.id} id={item.id} className="scroll-mt-24">
                      <Accordion.Header asChild>
                        <h4>
                          <Accordion.Trigger className="group flex w-full items-center justify-between gap-4 p-4 text-left font-medium text-sm hover:text-primary focus-visible:outline-2 focus-visible:outline-ring">
                            {item.question}
                            <ChevronDown
                              aria-hidden="true"
                              className="size-4 shrink-0 text-muted transition-transform group-data-[state=open]:rotate-180"
                            />
                          </Accordion.Trigger>
                        </h4>
                      </Accordion.Header>
                      <Accordion.Content className="px-4 pb-4 text-muted text-sm leading-relaxed">
                        {item.answer}
                      </Accordion.Content>
                    </Accordion.Item>
                  ))}
                </div>
              </section>
            ))}
          </Accordion.Root>
        </TabsContent>

        <TabsContent value="guides" className="mt-8">
          <h2 className="sr-only">Guides</h2>
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {guides.map((guide) => (
              <li key={guide.id}>
                <Link
                  to={guide.to}
                  className="flex h-full flex-col rounded-xl border border-border bg-surface p-6 transition-colors hover:border-primary/50 focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <BookOpen aria-hidden="true" className="size-6 text-primary" />
                  <h3 className="mt-4 font-semibold">{guide.title}</h3>
                  <p className="mt-2 flex-1 text-muted text-sm">{guide.description}</p>
                  <span className="mt-4 text-muted text-xs">{guide.readingMinutes} min read</span>
                </Link>
              </li>
            ))}
          </ul>
        </TabsContent>

        <TabsContent value="contact" className="mt-8">
          <h2 className="sr-only">Contact Support</h2>
          <ul aria-label="Support channels" className="grid gap-4 md:grid-cols-3">
            {[supportChannels.liveChat, supportChannels.email, supportChannels.phone].map((channel) => (
              <li key={channel.title}>
                <ChannelCard
                  channel={channel}
                  action={channel === supportChannels.liveChat ? <LiveChatWidget /> : undefined}
                />
              </li>
            ))}
          </ul>
          <Card className="mt-8">
            <h3 className="font-semibold text-lg">Open a support ticket</h3>
            <p className="mt-1 mb-6 text-muted text-sm">
              You get a reference number at once and a confirmation by e-mail; we answer to the address you
              give.
            </p>
            <Suspense
              fallback={
                <div className="flex min-h-96 items-center justify-center">
                  <Spinner label="Loading the ticket form" />
                </div>
              }
            >
              <SupportTicketForm />
            </Suspense>
          </Card>
        </TabsContent>
      </Tabs>

      <section aria-labelledby="popular-heading" className="mt-16">
        <h2 id="popular-heading" className="font-semibold text-2xl tracking-tight">
          Popular articles
        </h2>
        <ul className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {popularArticles.map((article) => (
            <li key={article.to}>
              <Link
                to={article.to}
                className="flex h-full items-center justify-between gap-3 rounded-xl border border-border p-4 text-sm transition-colors hover:border-primary/50 focus-visible:outline-2 focus-visible:outline-ring"
              >
                {article.title}
                <ArrowRight aria-hidden="true" className="size-4 shrink-0 text-primary" />
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="still-need-help"
        className="mt-16 rounded-2xl border border-primary/30 bg-primary/5 p-8 text-center sm:p-12"
      >
        <h2 id="still-need-help" className="font-semibold text-2xl tracking-tight">
          Still need help?
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-muted">
          Our team answers by e-mail within 4 hours, and urgent matters within the hour.
        </p>
        <Button asChild size="lg" className="mt-8">
          <Link to={paths.contact}>Contact Us</Link>
        </Button>
      </section>
    </ContentPage>
  );
}
