import { Link, useSearchParams } from 'react-router';
import { DocumentSections } from '@/components/document-sections.js';
import { ContentPage } from '@/components/layouts/content-page.js';
import { Button } from '@/components/ui/button.js';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.js';
import { paths } from '@/config/paths.js';
import { documentationTabs } from '@/content/documentation.js';
import { useScrollToHash } from '@/hooks/use-scroll-to-hash.js';

const defaultTab = 'getting-started';

export function DocumentationRoute() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab = documentationTabs.find((candidate) => candidate.id === requested)?.id ?? defaultTab;
  useScrollToHash(tab);

  return (
    <ContentPage
      eyebrow="Documentation"
      title="Documentation"
      intro="Guides to using Covenant: getting started, trading, wallet setup and security."
      actions={
        <>
          <Button asChild>
            <Link to={paths.signUp}>Create Account</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.apiReference}>API Reference</Link>
          </Button>
        </>
      }
    >
      <Tabs
        value={tab}
        onValueChange={(value) =>
          setSearchParams({ tab: value }, { replace: true, preventScrollReset: true })
        }
        className="mt-12"
      >
        <TabsList
          aria-label="Documentation topics"
          className="grid-flow-row grid-cols-2 sm:grid-flow-col sm:grid-cols-none"
        >
          {documentationTabs.map((candidate) => (
            <TabsTrigger key={candidate.id} value={candidate.id}>
              {candidate.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {documentationTabs.map((candidate) => (
          <TabsContent key={candidate.id} value={candidate.id} className="mt-10 focus-visible:outline-none">
            <p className="mb-10 text-lg">{candidate.summary}</p>
            <DocumentSections sections={candidate.sections} />
          </TabsContent>
        ))}
      </Tabs>

      <aside
        aria-labelledby="docs-help-heading"
        className="mt-16 rounded-xl border border-border bg-surface p-6"
      >
        <h2 id="docs-help-heading" className="font-semibold text-lg">
          Can’t find what you need?
        </h2>
        <p className="mt-2 text-muted text-sm">
          Search the answers in the help center, or write to the support team.
        </p>
        <div className="mt-4 flex flex-col gap-3 sm:flex-row">
          <Button asChild variant="outline">
            <Link to={paths.helpCenter}>Help Center</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={paths.contact}>Contact Support</Link>
          </Button>
        </div>
      </aside>
    </ContentPage>
  );
}
