import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousAxeViolations, saveScreenshots } from './public-checks.js';

type PageCheck = {
  path: string;
  name: string;
  title: string;
  heading: string;
  // Links inside the page's main content: accessible name → href.
  links?: [string, string][];
  texts?: (string | RegExp)[];
  headings?: string[];
  buttons?: string[];
};

const pages: PageCheck[] = [
  {
    path: '/',
    name: 'landing',
    title: 'OTC crypto trading with escrow | Covenant',
    heading: 'Large crypto trades, settled through escrow',
    links: [
      ['Start Trading', '/trading'],
      ['Learn More', '/features'],
      ['Explore All Features', '/features'],
      ['Start Your First Trade', '/trading'],
      ['Learn More About Security', '/security'],
    ],
  },
  {
    path: '/features',
    name: 'features',
    title: 'Features | Covenant',
    heading: 'Features',
    headings: [
      'CIS Exchange',
      'Automated Escrow',
      'Multi-Chain Protocol',
      'Multi-Chain Support',
      'KYC Verification',
      'Verified Traders',
      'Real-Time Processing',
      'Low Fees',
    ],
  },
  {
    path: '/security',
    name: 'security',
    title: 'Security | Covenant',
    heading: 'Security',
    headings: [
      'Two-of-Three Escrow',
      'Keys You Hold',
      'A Deposit Address per Deal',
      'KYC and AML Checks',
      'Encryption',
      'Immutable Audit Trail',
      'Fees',
      'Network fees per chain',
    ],
    texts: ['0.01%', 'platform fee', /Gas, paid in ETH/],
  },
  {
    path: '/how-it-works',
    name: 'how-it-works',
    title: 'How It Works | Covenant',
    heading: 'How It Works',
    headings: [
      'CIS upload and review',
      'CIS approval',
      'Terms proposal',
      'Escrow deployment',
      'Optional in-person meeting',
      'Settlement',
      'Technical specifications',
    ],
    links: [
      ['Create Account', '/signup'],
      ['Security', '/security'],
      ['Features', '/features'],
    ],
  },
  {
    path: '/covenant-meet',
    name: 'covenant-meet',
    title: 'Covenant Meet | Covenant',
    heading: 'Covenant Meet',
    headings: ['Flights', 'Hotels', 'Ground transport', 'QR and GPS check-in', 'Typical lead times'],
    texts: ['2-5 days', '1-3 days', '1-2 days', '3-7 days'],
    links: [
      ['Create a trade with an in-person meeting', '/trading'],
      ['Start Trading', '/trading'],
      ['How It Works', '/how-it-works'],
      ['Contact Us', '/contact'],
    ],
  },
  {
    path: '/documentation',
    name: 'documentation',
    title: 'Documentation | Covenant',
    heading: 'Documentation',
    headings: ['Create your account', 'KYC verification and tiers'],
    links: [
      ['Create Account', '/signup'],
      ['API Reference', '/api-reference'],
      ['Help Center', '/help-center'],
      ['Contact Support', '/contact'],
    ],
  },
  {
    path: '/api-reference',
    name: 'api-reference',
    title: 'API Reference | Covenant',
    heading: 'API Reference',
    headings: ['Base URL', 'Authentication', 'Rate limits', 'Error handling', 'Start building'],
    texts: [
      'Standard: 1000 requests/hour',
      'Premium: 10000 requests/hour',
      'INSUFFICIENT_BALANCE',
      'DEAL_NOT_ACTIVE',
      'INVALID_SIGNATURE',
      'ESCROW_ALREADY_FUNDED',
    ],
    links: [
      ['Get API Key', '/signup'],
      ['Documentation', '/documentation'],
      ['Create Account', '/signup'],
      ['Help Center', '/help-center'],
    ],
  },
  {
    path: '/help-center',
    name: 'help-center',
    title: 'Help Center | Covenant',
    heading: 'Help Center',
    headings: [
      'Getting Started',
      'Trading',
      'Escrow & Security',
      'Wallets & Technical',
      'Popular articles',
      'Still need help?',
    ],
    links: [['Contact Us', '/contact']],
  },
  {
    path: '/contact',
    name: 'contact',
    title: 'Contact | Covenant',
    heading: 'Contact',
    headings: [
      'Live chat',
      'Email',
      'Phone',
      'Office',
      'Send us a message',
      'Support hours',
      'Response times by priority',
      'Specialised teams',
    ],
    texts: [
      'Emergency only',
      'under 1 hour',
      'under 2 hours',
      'under 4 hours',
      'under 24 hours',
      'security@covenant.trade',
      'developers@covenant.trade',
    ],
    links: [['Privacy Policy', '/privacy-policy']],
    buttons: ['Send Message'],
  },
  {
    path: '/privacy-policy',
    name: 'privacy-policy',
    title: 'Privacy Policy | Covenant',
    heading: 'Privacy Policy',
    texts: [/plus 7 years/, /Transaction records: 10 years/, /Technical logs: 2 years/, /within 30 days/],
    links: legalLinks('Privacy Policy'),
  },
  {
    path: '/terms-of-service',
    name: 'terms-of-service',
    title: 'Terms of Service | Covenant',
    heading: 'Terms of Service',
    texts: [/at least 18 years old/],
    links: legalLinks('Terms of Service'),
  },
  {
    path: '/compliance',
    name: 'compliance',
    title: 'Compliance | Covenant',
    heading: 'Compliance',
    headings: ['KYC tiers', 'Regions', 'Travel Rule'],
    texts: [
      'Up to $10,000 per transaction',
      'Up to $100,000 per transaction',
      /transfers of \$1,000 or more/,
    ],
    links: legalLinks('Compliance'),
  },
  {
    path: '/risk-disclosure',
    name: 'risk-disclosure',
    title: 'Risk Disclosure | Covenant',
    heading: 'Risk Disclosure',
    headings: ['Market risk', 'Stablecoin risk'],
    links: legalLinks('Risk Disclosure'),
  },
];

function legalLinks(self: string): [string, string][] {
  return (
    [
      ['Privacy Policy', '/privacy-policy'],
      ['Terms of Service', '/terms-of-service'],
      ['Compliance', '/compliance'],
      ['Risk Disclosure', '/risk-disclosure'],
      ['Help Center', '/help-center'],
      ['Documentation', '/documentation'],
      ['Contact', '/contact'],
    ] as [string, string][]
  ).filter(([name]) => name !== self);
}

async function checkContent(page: Page, check: PageCheck) {
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: check.heading, exact: true })).toBeVisible();
  await expect(page).toHaveTitle(check.title);
  for (const name of check.headings ?? []) {
    await expect(main.getByRole('heading', { name, exact: true }).first()).toBeVisible();
  }
  for (const text of check.texts ?? []) {
    await expect(main.getByText(text).first()).toBeVisible();
  }
  for (const name of check.buttons ?? []) {
    await expect(main.getByRole('button', { name, exact: true })).toBeVisible();
  }
  for (const [name, href] of check.links ?? []) {
    await expect(main.getByRole('link', { name, exact: true }).first()).toHaveAttribute('href', href);
  }
}

for (const check of pages) {
  test(`${check.path} has its title, headings, links, no serious axe violations, and fits 390 px and 1440 px`, async ({
    page,
  }) => {
    await page.goto(check.path);
    await checkContent(page, check);
    await expectNoSeriousAxeViolations(page);
    await saveScreenshots(page, check.name);
  });
}

test('an unknown path shows the not-found page with status 404, and logs the path', async ({ page }) => {
  const logged: string[] = [];
  page.on('console', (message) => logged.push(message.text()));
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: '404' })).toBeVisible();
  await expect(main.getByText('Oops! Page not found')).toBeVisible();
  // The page is pre-rendered: the path is logged once the app has hydrated it.
  await expect.poll(() => logged.some((line) => line.includes('/no/such/page'))).toBe(true);
  await expectNoSeriousAxeViolations(page);
  await saveScreenshots(page, 'not-found');
  await main.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('every public page has its own document title', async ({ page }) => {
  const titles = new Set<string>();
  for (const check of pages) {
    await page.goto(check.path);
    await expect(page).toHaveTitle(check.title);
    titles.add(await page.title());
  }
  expect(titles.size).toBe(pages.length);
});
