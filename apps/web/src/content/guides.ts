import { paths } from '@/config/paths.js';

export type Guide = { id: string; title: string; description: string; to: string; readingMinutes: number };

// The help center's six guide cards, each leading to the page that holds the guide (spec §2).
export const guides: Guide[] = [
  {
    id: 'first-trade',
    title: 'First Trade Walkthrough',
    description:
      'From choosing a verified partner to settlement: CIS exchange, terms, deposits, confirmations and payout.',
    to: `${paths.documentation}?tab=trading-guide`,
    readingMinutes: 8,
  },
  {
    id: 'wallet-setup',
    title: 'Multi-Chain Wallet Setup',
    description: 'Your escrow keys, and which addresses and tokens to use on Bitcoin, Ethereum and Solana.',
    to: `${paths.documentation}?tab=wallet-setup`,
    readingMinutes: 6,
  },
  {
    id: 'cis-best-practices',
    title: 'CIS Best Practices',
    description:
      'What a complete Customer Information Sheet contains, and how the two-sided approval works before terms.',
    to: paths.howItWorks,
    readingMinutes: 4,
  },
  {
    id: 'security-guidelines',
    title: 'Security Guidelines',
    description: 'Two of three keys, TOTP sign-in, genuine messages and careful address handling.',
    to: paths.security,
    readingMinutes: 5,
  },
  {
    id: 'meet-travel',
    title: 'Meet Travel coordination',
    description:
      'Plan an in-person meeting: travel paid from escrow with both approvals, QR and GPS check-in.',
    to: paths.meet,
    readingMinutes: 4,
  },
  {
    id: 'api-integration',
    title: 'API Integration',
    description:
      'Authenticate, create deals, fund escrow and verify webhook signatures from your own systems.',
    to: paths.apiReference,
    readingMinutes: 10,
  },
];
