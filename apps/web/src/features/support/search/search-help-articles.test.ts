import { describe, expect, it } from 'vitest';
import type { HelpArticle } from './help-articles.js';
import { helpArticles } from './help-articles.js';
import { searchHelpArticles, splitByTerms, termsOf } from './search-help-articles.js';

const article = (title: string, text: string): HelpArticle => ({
  kind: 'FAQ',
  context: 'Test',
  title,
  text,
  to: '/help-center',
});

describe('searchHelpArticles', () => {
  const articles = [
    article('Fees', 'A flat platform fee of 0.01% of each leg, deducted at settlement.'),
    article('Escrow keys', 'Two of three keys move the escrow; the fee is separate.'),
    article('Wallets', 'Use a Bitcoin wallet you control.'),
  ];

  it('finds articles holding every word, title matches first', () => {
    const results = searchHelpArticles(articles, 'ESCROW fee');
    expect(results.map((result) => result.article.title)).toEqual(['Escrow keys']);
    expect(searchHelpArticles(articles, 'fee').map((result) => result.article.title)).toEqual([
      'Fees',
      'Escrow keys',
    ]);
  });

  it('finds nothing for an empty query or a word that is nowhere', () => {
    expect(searchHelpArticles(articles, '   ')).toEqual([]);
    expect(searchHelpArticles(articles, 'lightning')).toEqual([]);
  });

  it('cuts a long text around the first match', () => {
    const long = `${'x '.repeat(200)}the deadline refund ${'y '.repeat(200)}`;
    const [result] = searchHelpArticles([article('Long', long)], 'deadline');
    expect(result?.excerpt.startsWith('…')).toBe(true);
    expect(result?.excerpt.endsWith('…')).toBe(true);
    expect(result?.excerpt).toContain('the deadline refund');
  });

  it('searches the FAQ, the guides and the documentation', () => {
    const kinds = new Set(searchHelpArticles(helpArticles, 'escrow').map((result) => result.article.kind));
    expect(kinds).toEqual(new Set(['FAQ', 'Guide', 'Documentation']));
    const [top] = searchHelpArticles(helpArticles, 'confirmations');
    expect(top?.article.to).toBe('/help-center?tab=faq#faq-confirmations');
  });
});

describe('splitByTerms', () => {
  it('marks every occurrence, whatever its case, and keeps special characters literal', () => {
    expect(splitByTerms('Fee: 0.01% of the FEE', ['fee', '0.01%'])).toEqual([
      { text: 'Fee', match: true },
      { text: ': ', match: false },
      { text: '0.01%', match: true },
      { text: ' of the ', match: false },
      { text: 'FEE', match: true },
    ]);
  });

  it('drops one-letter words from the query', () => {
    expect(termsOf('a  Deal  deal b')).toEqual(['deal']);
  });
});
