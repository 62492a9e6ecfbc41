import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { BrandLink } from '@/components/layouts/brand-link.js';
import { paths } from '@/config/paths.js';

const sections = [
  {
    heading: 'Product',
    links: [
      { to: paths.features, label: 'Features' },
      { to: paths.security, label: 'Security' },
      { to: paths.howItWorks, label: 'How It Works' },
      { to: paths.meet, label: 'Covenant Meet' },
    ],
  },
  {
    heading: 'Developers',
    links: [
      { to: paths.documentation, label: 'Documentation' },
      { to: paths.apiReference, label: 'API Reference' },
    ],
  },
  {
    heading: 'Support',
    links: [
      { to: paths.helpCenter, label: 'Help Center' },
      { to: paths.contact, label: 'Contact' },
    ],
  },
  {
    heading: 'Legal',
    links: [
      { to: paths.privacyPolicy, label: 'Privacy Policy' },
      { to: paths.termsOfService, label: 'Terms of Service' },
      { to: paths.compliance, label: 'Compliance' },
      { to: paths.riskDisclosure, label: 'Risk Disclosure' },
    ],
  },
];

export function SiteFooter() {
  // The year is the reader's, not the build's: public pages are rendered at build time, and a page
  // built in one year and opened in the next would not match its markup. It appears once mounted.
  const [year, setYear] = useState<number | null>(null);
  useEffect(() => setYear(new Date().getFullYear()), []);
  return (
    <footer className="border-border border-t bg-surface">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-12 sm:px-6 md:grid-cols-[1.5fr_repeat(4,1fr)]">
        <div className="col-span-2 md:col-span-1">
          <BrandLink />
          <p className="mt-3 max-w-xs text-muted text-sm">
            Over-the-counter crypto trades between verified parties, settled through escrow.
          </p>
        </div>
        {sections.map((section) => (
          <nav key={section.heading} aria-label={section.heading}>
            <h2 className="font-semibold text-sm">{section.heading}</h2>
            <ul className="mt-3 space-y-2">
              {section.links.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="rounded-sm text-muted text-sm hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="border-border border-t px-4 py-6 text-center text-muted text-xs">
        © {year ? `${year} ` : ''}Covenant. All rights reserved.
      </p>
    </footer>
  );
}
