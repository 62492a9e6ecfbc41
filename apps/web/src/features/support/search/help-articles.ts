import { paths } from '@/config/paths.js';
import { blockText } from '@/content/document.js';
import { documentationTabs } from '@/content/documentation.js';
import { faqCategories } from '@/content/faq.js';
import { guides } from '@/content/guides.js';

export type HelpArticle = {
  kind: 'FAQ' | 'Guide' | 'Documentation';
  // Where it sits: the FAQ category or the documentation tab.
  context: string;
  title: string;
  text: string;
  to: string;
};

// Everything the help center searches, flattened into one list: FAQ answers, guide cards and every
// documentation section.
export const helpArticles: HelpArticle[] = [
  ...faqCategories.flatMap((category) =>
    category.items.map(
      (item): HelpArticle => ({
        kind: 'FAQ',
        context: category.title,
        title: item.question,
        text: item.answer,
        to: `${paths.helpCenter}?tab=faq#${item.id}`,
      }),
    ),
  ),
  ...guides.map(
    (guide): HelpArticle => ({
      kind: 'Guide',
      context: 'Guides',
      title: guide.title,
      text: guide.description,
      to: guide.to,
    }),
  ),
  ...documentationTabs.flatMap((tab) =>
    tab.sections.map(
      (section): HelpArticle => ({
        kind: 'Documentation',
        context: tab.label,
        title: section.title,
        text: section.blocks.map(blockText).join(' '),
        to: `${paths.documentation}?tab=${tab.id}#${section.id}`,
      }),
    ),
  ),
];
