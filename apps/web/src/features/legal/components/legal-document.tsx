import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DocumentSections } from '@/components/document-sections.js';
import { ContentPage } from '@/components/layouts/content-page.js';
import { paths } from '@/config/paths.js';
import type { DocumentSection } from '@/content/document.js';

const relatedPages = [
  { to: paths.privacyPolicy, label: 'Privacy Policy' },
  { to: paths.termsOfService, label: 'Terms of Service' },
  { to: paths.compliance, label: 'Compliance' },
  { to: paths.riskDisclosure, label: 'Risk Disclosure' },
  { to: paths.helpCenter, label: 'Help Center' },
  { to: paths.documentation, label: 'Documentation' },
  { to: paths.contact, label: 'Contact' },
];

export const legalEffectiveDate = '1 March 2026';

// A legal text: its sections with a table of contents, and links to the other legal and help pages.
export function LegalDocument({
  title,
  intro,
  sections,
  children,
}: {
  title: string;
  intro: string;
  sections: DocumentSection[];
  children?: ReactNode;
}) {
  return (
    <ContentPage eyebrow="Legal" title={title} intro={intro}>
      <p className="mt-4 text-muted text-sm">Effective {legalEffectiveDate}</p>
      <nav aria-label="On this page" className="mt-10 rounded-xl border border-border bg-surface p-6">
        <h2 className="font-semibold text-sm">On this page</h2>
        <ol className="mt-3 grid list-decimal gap-x-8 gap-y-1 pl-5 text-sm sm:grid-cols-2">
          {sections.map((section) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                className="text-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
              >
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {children}
      <div className="mt-12">
        <DocumentSections sections={sections} />
      </div>
      <nav aria-label="Related pages" className="mt-16 border-border border-t pt-8">
        <h2 className="font-semibold text-sm">Related pages</h2>
        <ul className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {relatedPages
            .filter((page) => page.label !== title)
            .map((page) => (
              <li key={page.to}>
                <Link to={page.to} className="text-primary underline-offset-4 hover:underline">
                  {page.label}
                </Link>
              </li>
            ))}
        </ul>
      </nav>
    </ContentPage>
  );
}
