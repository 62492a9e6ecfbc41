import { Search, X } from 'lucide-react';
import { useDeferredValue, useId } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths.js';
import { helpArticles } from '../search/help-articles.js';
import { searchHelpArticles } from '../search/search-help-articles.js';
import { HighlightedText } from './highlighted-text.js';

// Search across the FAQ, the guides and the documentation; results follow every keystroke.
export function HelpSearch({
  query,
  onQueryChange,
}: {
  query: string;
  onQueryChange: (query: string) => void;
}) {
  const inputId = useId();
  const deferredQuery = useDeferredValue(query);
  const results = searchHelpArticles(helpArticles, deferredQuery);
  const searching = deferredQuery.trim().length > 0;

  return (
    <search className="mt-10 block">
      <label htmlFor={inputId} className="sr-only">
        Search help articles
      </label>
      <div className="relative">
        <Search aria-hidden="true" className="-translate-y-1/2 absolute top-1/2 left-4 size-5 text-muted" />
        <input
          id={inputId}
          type="search"
          value={query}
          onChange={(event) => onQueryChange(event.target.value)}
          placeholder="Search the FAQ, guides and documentation"
          autoComplete="off"
          className="h-14 w-full rounded-xl border border-border bg-surface pr-12 pl-12 text-base placeholder:text-muted focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring/40 [&::-webkit-search-cancel-button]:hidden"
        />
        {query && (
          <button
            type="button"
            onClick={() => onQueryChange('')}
            aria-label="Clear search"
            className="-translate-y-1/2 absolute top-1/2 right-3 rounded-md p-1.5 text-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        )}
      </div>

      <div aria-live="polite" className="mt-6">
        {searching && results.length > 0 && (
          <section aria-label="Search results">
            <p className="text-muted text-sm">
              {results.length} {results.length === 1 ? 'result' : 'results'} for “{deferredQuery.trim()}”
            </p>
            <ul className="mt-3 space-y-3">
              {results.map(({ article, terms, excerpt }) => (
                <li key={article.to}>
                  <Link
                    to={article.to}
                    className="block rounded-xl border border-border bg-surface p-4 transition-colors hover:border-primary/50 focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    <span className="text-muted text-xs uppercase tracking-wider">
                      {article.kind} · {article.context}
                    </span>
                    <span className="mt-1 block font-semibold">
                      <HighlightedText text={article.title} terms={terms} />
                    </span>
                    <span className="mt-1 block text-muted text-sm">
                      <HighlightedText text={excerpt} terms={terms} />
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        )}
        {searching && results.length === 0 && (
          <div className="rounded-xl border border-border border-dashed p-8 text-center">
            <p className="font-semibold">No results for “{deferredQuery.trim()}”</p>
            <p className="mt-2 text-muted text-sm">
              Try fewer or different words, such as “escrow”, “fee” or “KYC”, or{' '}
              <Link to={paths.contact} className="text-primary underline underline-offset-4">
                ask our support team
              </Link>
              .
            </p>
          </div>
        )}
      </div>
    </search>
  );
}
