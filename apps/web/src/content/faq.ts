export type FaqItem = { id: string; question: string; answer: string };
export type FaqCategory = { id: string; title: string; items: FaqItem[] };

// The help center's FAQ: four categories of three questions (spec §2).
export const faqCategories: FaqCategory[] = [
  {
    id: 'getting-started',
    title: 'Getting Started',
    items: [
      {
        id: 'faq-sign-up',
        question: 'How do I open an account?',
        answer:
          'Sign up with your e-mail address and a password of at least 6 characters, then open the confirmation link we e-mail you. You can sign in once the address is confirmed. Complete KYC verification before your first trade.',
      },
      {
        id: 'faq-kyc-time',
        question: 'How long does KYC verification take?',
        answer:
          'Basic verification takes 1-2 business days and allows trades up to $10,000 each. Enhanced takes 3-5 business days and allows up to $100,000 per trade. Institutional verification takes 7-14 business days and comes with limits agreed with our compliance team.',
      },
      {
        id: 'faq-who-can-trade',
        question: 'Who can trade on Covenant?',
        answer:
          'Adults of at least 18 years of age, and companies acting through an authorised representative, who have passed KYC and are not resident in a region where we cannot offer the service. Both sides of every trade are verified.',
      },
    ],
  },
  {
    id: 'trading',
    title: 'Trading',
    items: [
      {
        id: 'faq-what-pairs',
        question: 'What can I trade?',
        answer:
          'BTC on Bitcoin, ETH, WETH and WBTC on Ethereum, and SOL on Solana, against USDC or USDT on Ethereum or Solana. Each side of a trade may be up to 1,000,000 units, within your KYC tier’s limit.',
      },
      {
        id: 'faq-cis',
        question: 'What is a CIS and why do I need one?',
        answer:
          'A Customer Information Sheet describes who you are and how you trade: legal name, entity type, jurisdiction, source of funds, assets, size range, preferred chains and settlement window. Both parties exchange and approve sheets before terms are negotiated, so each knows the other before money moves.',
      },
      {
        id: 'faq-change-terms',
        question: 'Can the terms change after we agree?',
        answer:
          'Yes, before escrow funding and only if both parties accept the new version. Once the escrow is funded the terms are fixed; only a mediator’s dispute decision can change the outcome.',
      },
    ],
  },
  {
    id: 'escrow-security',
    title: 'Escrow & Security',
    items: [
      {
        id: 'faq-escrow-keys',
        question: 'Who controls the funds in escrow?',
        answer:
          'Nobody alone. Each escrow needs two of three keys to move funds: the buyer’s, the seller’s and Covenant’s mediator key. Your key is created and encrypted in your browser with an escrow password we never see.',
      },
      {
        id: 'faq-no-funding',
        question: 'What happens if my counterparty does not fund?',
        answer:
          'At the funding deadline (1 to 168 hours after the terms are agreed) the deal is cancelled automatically and any deposit that arrived is returned to its depositor’s refund address.',
      },
      {
        id: 'faq-fees',
        question: 'What does a trade cost?',
        answer:
          'A flat platform fee of 0.01% of each leg, rounded down to the token’s smallest unit and deducted at settlement. You also pay the network fees of the transactions you send, such as gas on Ethereum.',
      },
    ],
  },
  {
    id: 'wallets-technical',
    title: 'Wallets & Technical',
    items: [
      {
        id: 'faq-which-wallet',
        question: 'Which wallet should I use?',
        answer:
          'Any wallet you control on the chain of the leg: a Bitcoin wallet (bc1…, 1… or 3… addresses) for Bitcoin, an Ethereum wallet for ETH and ERC-20 tokens, a Solana wallet for SOL, USDC and USDT. You can fund a deposit address from an exchange, but payouts should go to an address you hold the keys for.',
      },
      {
        id: 'faq-confirmations',
        question: 'How many confirmations does a deposit need?',
        answer:
          'At least 2 confirmations on Bitcoin, which usually takes 20-60 minutes. Ethereum and Solana deposits count once their block is finalized (or reaches the configured depth).',
      },
      {
        id: 'faq-api',
        question: 'Is there an API?',
        answer:
          'Yes. The REST API at /api/v1 covers authentication, your profile, deals, escrow and wallets, with Bearer tokens, webhooks for deal.created, escrow.funded and deal.completed, and rate limits of 1000 requests/hour (Standard) or 10000 requests/hour (Premium).',
      },
    ],
  },
];
