import type { HelpArticle } from './help-articles.js';

export type HelpSearchResult = {
  article: HelpArticle;
  terms: string[];
  // The part of the text around the first match, so the result shows why it matched.
  excerpt: string;
};

const excerptRadius = 90;

/** The words of a query, lower-cased, without duplicates; a one-letter word matches too much to help. */
export function termsOf(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 1);
  return [...new Set(words)];
}

/**
 * Articles containing every word of the query (in the title or the text), those matching in the
 * title first, then in their original order.
 */
export function searchHelpArticles(articles: HelpArticle[], query: string): HelpSearchResult[] {
  const terms = termsOf(query);
  if (terms.length === 0) return [];

  return articles
    .map((article, index) => {
      const title = article.title.toLowerCase();
      const text = article.text.toLowerCase();
      const matches = terms.every((term) => title.includes(term) || text.includes(term));
      const titleHits = terms.filter((term) => title.includes(term)).length;
      return { article, index, matches, titleHits, text };
    })
    .filter((entry) => entry.matches)
    .sort((a, b) => b.titleHits - a.titleHits || a.index - b.index)
    .map(({ article, text }) => ({ article, terms, excerpt: excerptAround(article.text, text, terms) }));
}

function excerptAround(original: string, lowered: string, terms: string[]): string {
  const positions = terms.map((term) => lowered.indexOf(term)).filter((position) => position >= 0);
  const first = positions.length > 0 ? Math.min(...positions) : 0;
  const start = Math.max(0, first - excerptRadius);
  const end = Math.min(original.length, first + excerptRadius * 2);
  return `${start > 0 ? '…' : ''}${original.slice(start, end).trim()}${end < original.length ? '…' : ''}`;
}

/** Splits text into runs that match one of the terms (case-insensitively) and runs that do not. */
export function splitByTerms(text: string, terms: string[]): { text: string; match: boolean }[] {
  if (terms.length === 0) return [{ text, match: false }];
  const escaped = terms
    .toSorted((a, b) => b.length - a.length)
    .map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(${escaped.join('|')})`, 'gi');
  return text
    .split(pattern)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, match: terms.includes(part.toLowerCase()) }));
}
