import type { DocumentSection } from '@/content/document.js';

export const termsOfServiceSections: DocumentSection[] = [
  {
    id: 'agreement',
    title: 'Agreement',
    blocks: [
      'These terms govern your use of Covenant: the website, the trading platform, the escrow service and the API. By creating an account you accept them, together with the Privacy Policy and the Risk Disclosure.',
    ],
  },
  {
    id: 'eligibility',
    title: 'Who may use Covenant',
    blocks: [
      {
        list: [
          'You must be at least 18 years old and legally able to enter into a binding contract.',
          'You must complete KYC verification before trading, and keep the information you gave us accurate.',
          'You may not use Covenant if you are subject to sanctions, or from a region where we do not offer the service (see Compliance).',
          'A company uses Covenant through a representative authorised to act for it; it is responsible for that person’s actions.',
        ],
      },
    ],
  },
  {
    id: 'account',
    title: 'Your account',
    blocks: [
      'Keep your password, your escrow password and any API keys secret; you are responsible for what is done with them. Tell us at once if you suspect someone else has used your account. One person or company holds one account.',
    ],
  },
  {
    id: 'service',
    title: 'What Covenant does, and does not do',
    blocks: [
      'Covenant lets two verified parties agree a trade and settle it through an escrow that needs two of three keys (buyer, seller, Covenant) to move funds. We are not a party to your trade, we do not set prices, we do not hold your private keys, and we give no investment, tax or legal advice.',
    ],
  },
  {
    id: 'trades',
    title: 'Trades',
    blocks: [
      {
        list: [
          'Terms become binding when both parties have accepted the same version. Before escrow funding they can change only by both parties accepting a new version; after funding they cannot change, except by a dispute decision.',
          'Each party must fund its leg with exactly the agreed amount of the agreed token on the agreed chain before the funding deadline.',
          'If both legs are not funded by the deadline, the deal is cancelled and deposits are returned to the refund addresses in the terms.',
          'You are responsible for the payout and refund addresses you give. Funds sent to an address you entered wrongly cannot be recovered by us.',
          'Trade size is limited to 1,000,000 units per side and to the limit of your KYC tier.',
        ],
      },
    ],
  },
  {
    id: 'fees',
    title: 'Fees',
    blocks: [
      'The platform fee is 0.01% of each leg, rounded down to the token’s smallest unit and deducted from that leg’s payout at settlement. Cancelled and refunded deals pay no platform fee. Network fees are paid to the networks and are yours to bear for the transactions you send.',
    ],
  },
  {
    id: 'disputes',
    title: 'Disputes between parties',
    blocks: [
      'After funding, either party may open a dispute. A Covenant mediator decides on the basis of the agreed terms, the deal’s audit trail and what both parties submit: release per the terms, refund of both deposits, or a split. By using the escrow you agree that the mediator’s decision is carried out with the mediator key and the key of the party it favours.',
    ],
  },
  {
    id: 'prohibited',
    title: 'What you may not do',
    blocks: [
      {
        list: [
          'Trade funds that come from crime, or for someone you have not disclosed.',
          'Give false information in KYC or in a Customer Information Sheet.',
          'Circumvent rate limits, probe the platform for weaknesses without our written consent, or interfere with other users.',
          'Use the service in breach of sanctions or of the law that applies to you.',
        ],
      },
    ],
  },
  {
    id: 'suspension',
    title: 'Suspension and closure',
    blocks: [
      'You may close your account at any time once you have no deal in progress. We may suspend or close an account that breaks these terms or where the law requires it; deals in escrow are then completed, refunded or decided by a mediator as these terms provide, never kept.',
    ],
  },
  {
    id: 'liability',
    title: 'Liability',
    blocks: [
      'We run the platform with care, but blockchains, wallets and networks are outside our control. As far as the law allows, we are not liable for losses caused by market movements, network delays or failures, the actions of token issuers, or addresses and keys you control. Nothing in these terms limits liability that cannot be limited by law.',
    ],
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    blocks: [
      'We announce changes by e-mail at least 30 days before they apply, except changes required by law. Deals already agreed continue under the terms in force when they were agreed.',
    ],
  },
];
