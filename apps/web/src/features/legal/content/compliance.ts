import type { DocumentSection } from '@/content/document.js';

export const kycTiers = [
  { tier: 'Basic', limit: 'Up to $10,000 per transaction', review: '1-2 business days' },
  { tier: 'Enhanced', limit: 'Up to $100,000 per transaction', review: '3-5 business days' },
  { tier: 'Institutional', limit: 'Custom limits, agreed with compliance', review: '7-14 business days' },
];

// "Compliant": the region's requirements for the trades we support are met by the controls below.
// "In Progress": work on that region is not finished, and its residents are not onboarded yet.
export const regions: { region: string; status: 'Compliant' | 'In Progress'; note: string }[] = [
  {
    region: 'FATF standards (global baseline)',
    status: 'Compliant',
    note: 'Customer due diligence before trading, Travel Rule from $1,000, record keeping.',
  },
  {
    region: 'European Union',
    status: 'In Progress',
    note: 'Markets in Crypto-Assets Regulation (MiCA) and the Transfer of Funds Regulation.',
  },
  {
    region: 'United Kingdom',
    status: 'In Progress',
    note: 'Money Laundering Regulations registration for crypto-asset businesses.',
  },
  {
    region: 'Switzerland',
    status: 'In Progress',
    note: 'Anti-Money Laundering Act and affiliation with a self-regulatory organisation.',
  },
  {
    region: 'Singapore',
    status: 'In Progress',
    note: 'Payment Services Act, digital payment token services.',
  },
  {
    region: 'United States',
    status: 'In Progress',
    note: 'Bank Secrecy Act registration and state requirements.',
  },
];

export const complianceSections: DocumentSection[] = [
  {
    id: 'kyc',
    title: 'Know your customer',
    blocks: [
      'Every trader is verified before the first trade: identity, and for companies the company and its beneficial owners. The tier reached sets the value of a single trade, measured in US dollars on the stablecoin leg. The trading page shows the result (Verified or Verification Pending, your tier, KYC Complete).',
      'Before terms are negotiated, both parties also exchange Customer Information Sheets, including the source of funds, so that each side knows whom it trades with.',
    ],
  },
  {
    id: 'aml',
    title: 'Anti-money laundering and sanctions',
    blocks: [
      {
        list: [
          'Customers are screened against sanctions lists at onboarding and again over time.',
          'Deals are monitored for unusual size, frequency or patterns; unexplained activity is reviewed and, where the law requires, reported to the competent authority.',
          'Deposits from or payouts to addresses linked to sanctioned parties are refused.',
          'We do not tell a customer when a report has been made, as the law forbids it.',
        ],
      },
    ],
  },
  {
    id: 'travel-rule',
    title: 'Travel Rule',
    blocks: [
      'For transfers of $1,000 or more, the originator and beneficiary information required by the Travel Rule (FATF Recommendation 16) travels with the transfer when either side is another virtual-asset service provider, such as an exchange. Below $1,000 the information is still recorded for our own records.',
    ],
  },
  {
    id: 'records',
    title: 'Record keeping',
    blocks: [
      'Transaction records are kept for 10 years, account data for the life of the account plus 7 years. Each deal’s audit trail is append-only and hash-chained, so the record of who did what and when cannot be altered without detection.',
    ],
  },
  {
    id: 'requests',
    title: 'Requests from authorities',
    blocks: [
      'We answer lawful requests from authorities through our compliance team, disclosing only what the request requires. Escrowed funds can move only with two of three keys, so a freeze is carried out by not co-signing until the matter is resolved.',
    ],
  },
  {
    id: 'contact-compliance',
    title: 'Contact the compliance team',
    blocks: ['Write to compliance@covenant.trade about verification, limits or an institutional tier.'],
  },
];
