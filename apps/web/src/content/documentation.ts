import type { DocumentSection } from './document.js';

export type DocumentationTab = {
  id: 'getting-started' | 'trading-guide' | 'wallet-setup' | 'security';
  label: string;
  summary: string;
  sections: DocumentSection[];
};

// The documentation page's four tabs. Written from what the platform does, step by step; the
// help center searches the same text.
export const documentationTabs: DocumentationTab[] = [
  {
    id: 'getting-started',
    label: 'Getting Started',
    summary: 'Create an account, confirm your e-mail address, complete KYC and learn what each tier allows.',
    sections: [
      {
        id: 'create-account',
        title: 'Create your account',
        blocks: [
          'Open the sign-up page and enter your e-mail address and a password. First name, last name and a username are optional, but your username is how counterparties find you in Find Partners, so most traders set one.',
          {
            steps: [
              'Go to /auth and choose the Sign Up tab (or use /signup).',
              'Enter your e-mail address and a password of at least 6 characters, twice. The two must match.',
              'Submit. We send a confirmation e-mail to the address you gave; nothing else happens until you open it.',
              'Open the link in that e-mail. It works once and expires; if it has expired, sign up again with the same address or ask for a new link.',
              'Sign in with your e-mail address and password. You land on the trading desk.',
            ],
          },
          'Sign-in is refused until the e-mail address is confirmed, so that every account on the platform belongs to a mailbox its owner controls.',
        ],
      },
      {
        id: 'kyc-tiers',
        title: 'KYC verification and tiers',
        blocks: [
          'Before your first trade you complete KYC (know your customer) verification. Your tier sets how large a single trade may be; the trade value in US dollars is taken from the stablecoin leg (1 USDC or 1 USDT counts as $1).',
          {
            list: [
              'Basic: up to $10,000 per transaction. Review takes 1-2 business days.',
              'Enhanced: up to $100,000 per transaction. Review takes 3-5 business days.',
              'Institutional: custom limits agreed with the compliance team. Review takes 7-14 business days.',
            ],
          },
          'The trading page shows your status at the top: Verified or Verification Pending, your tier followed by the word Tier, and KYC Complete once the review is done. Creating a trade without completed KYC is refused with "KYC Required".',
        ],
      },
      {
        id: 'first-session',
        title: 'Signing in and staying signed in',
        blocks: [
          'Your session is kept in this browser and refreshed automatically shortly before it expires, so you stay signed in while you work. Signing out ends the session on the server as well.',
          'If you forget your password, use "Forgot password?" on the sign-in form: we e-mail you a one-time link to set a new one.',
        ],
      },
      {
        id: 'next-steps',
        title: 'What happens next',
        blocks: [
          'Once verified you can create a deal with another verified trader. Read the Trading Guide tab for the whole life of a deal, and Wallet Setup before you send funds to an escrow address for the first time.',
        ],
      },
    ],
  },
  {
    id: 'trading-guide',
    label: 'Trading Guide',
    summary:
      'The life of a deal: partner, CIS exchange, terms, escrow deposits, settlement, refunds and disputes.',
    sections: [
      {
        id: 'create-deal',
        title: 'Create a deal with a verified partner',
        blocks: [
          'A deal exchanges one asset (BTC on Bitcoin, ETH or another token on Ethereum, SOL on Solana) against a stablecoin (USDC or USDT on Ethereum or Solana). The party who creates the deal is the buyer of the asset; the partner you choose is the seller.',
          {
            steps: [
              'On the trading page, open Find Partners and search by username. Only traders who are verified and have completed KYC are listed. Choose Select Partner.',
              'In Create Trade, choose the asset chain (BTC, ETH or SOL), the asset symbol and amount, then the stable chain (ETH or SOL), the stablecoin (USDC or USDT) and its amount.',
              'Tick "Require in-person meeting" if you want to meet, and enter the meeting location.',
              'Choose Create Trade. The deal starts as a Draft and appears under My Trades for both of you.',
            ],
          },
          'Amounts are entered as decimals (the asset to 8 places, the stablecoin to 2) and stored exactly in the token’s smallest unit. Each side is limited to 1,000,000 units, and the trade value must also fit your KYC tier.',
        ],
      },
      {
        id: 'cis-exchange',
        title: 'Exchange Customer Information Sheets',
        blocks: [
          'Covenant is CIS-first: before any price is negotiated, each party shares a Customer Information Sheet and approves the other’s. A CIS states who you are and how you trade: legal name, whether you trade as an individual or a company, jurisdiction, source of funds, the assets and size range you trade, your preferred chains and the settlement window you can work with. You may attach a document.',
          'CIS files are encrypted at rest with AES-256-GCM and are visible only to you, your counterparty on the deal, and compliance staff. If a sheet is incomplete, reject it with a comment; your counterparty can submit a corrected one. When both sheets are approved the deal moves to CIS Submitted.',
        ],
      },
      {
        id: 'agree-terms',
        title: 'Agree on the terms',
        blocks: [
          'Either party proposes terms: the amounts, chains and symbols of both legs, the funding deadline (between 1 and 168 hours after agreement) and whether a meeting is required. The other party accepts that exact version or sends a counter-proposal; every proposal has a version number, so nobody accepts something that changed underneath them.',
          'Each party also gives a payout address (where they receive the other leg) and a refund address (where their own deposit returns if the deal does not complete). When the terms are accepted the deal moves to Terms Agreed.',
          'Terms can change only before escrow funding, and only by both parties. After funding they are fixed; the API answers DEAL_NOT_ACTIVE to any attempt to change them, and only a dispute decision can alter the outcome.',
        ],
      },
      {
        id: 'fund-escrow',
        title: 'Fund the escrow: one deposit address per leg',
        blocks: [
          'On agreement Covenant creates the escrow and shows each party its own deposit address for this deal. The seller deposits the asset on the asset chain; the buyer deposits the stablecoin on the stable chain. The addresses are unique to the deal and to the leg, so a deposit can never be mistaken for another deal’s.',
          {
            list: [
              'Send exactly the agreed amount of exactly the agreed token, on the agreed chain, before the funding deadline.',
              'You may pay from any wallet or exchange account. What matters is that the deposit reaches the address.',
              'A deposit that is short, too large or in the wrong token is flagged on the deal and handled explicitly: nothing is accepted or kept silently.',
            ],
          },
        ],
      },
      {
        id: 'confirmations',
        title: 'Confirmations',
        blocks: [
          'A deposit counts only once its chain has confirmed it deeply enough that it cannot be reversed.',
          {
            list: [
              'Bitcoin: at least 2 confirmations, typically 20-60 minutes after you send.',
              'Ethereum: the block holding the deposit must reach the configured depth (finalized by default).',
              'Solana: the transaction must be finalized.',
            ],
          },
          'When both legs are confirmed the deal moves to Escrow Funded.',
        ],
      },
      {
        id: 'settlement-fee',
        title: 'Settlement and the 0.01% fee',
        blocks: [
          'When both legs are funded (and, if a meeting was agreed, both parties have checked in), each giving party approves the release of its leg. Covenant co-signs both legs only once both approvals are present and broadcasts them together: the asset goes to the buyer’s payout address and the stablecoin to the seller’s.',
          'The platform fee is 0.01% (one basis point) of each leg, rounded down to the token’s smallest unit, deducted from that leg’s payout at settlement and paid to Covenant’s fee address on that chain. For example, on a leg of 10 BTC (1,000,000,000 satoshi) the fee is 100,000 satoshi (0.001 BTC) and the buyer receives 9.999 BTC; on a leg of 950,000.00 USDC the fee is 95.00 USDC. Network fees for the release transactions are separate and depend on the chain.',
          'The deal is then Completed, and it records the buyer, seller and fee transaction hashes.',
        ],
      },
      {
        id: 'refund-deadline',
        title: 'Automatic refund at the funding deadline',
        blocks: [
          'If the funding deadline passes before both legs are confirmed, the deal is cancelled automatically and every deposit that did arrive is sent back to its depositor’s refund address. Either party may also cancel while nothing has been deposited.',
        ],
      },
      {
        id: 'disputes',
        title: 'Disputes',
        blocks: [
          'After funding, either party may open a dispute, for example when the other side does not approve the release within the settlement window. A Covenant mediator reviews the deal, its audit trail and what both parties submit, and decides one of three outcomes: release per the agreed terms, refund both deposits, or a split.',
          'The decision is carried out on-chain with the mediator’s key together with the key of the party it favours: two of the three keys, as for any other release. Every step of the deal, who took it and why, is kept in an append-only audit trail in which each entry carries the hash of the one before it.',
        ],
      },
    ],
  },
  {
    id: 'wallet-setup',
    label: 'Wallet Setup',
    summary: 'Your escrow keys, and the addresses and tokens to use on Bitcoin, Ethereum and Solana.',
    sections: [
      {
        id: 'escrow-keys',
        title: 'Your escrow keys',
        blocks: [
          'Every escrow is held under three keys: the buyer’s, the seller’s and Covenant’s (the mediator key). Any two can move the funds; no single one can, Covenant’s included.',
          'Your key never leaves your control. Your browser creates your escrow seed and encrypts it with an escrow password that is never sent to us; we store only the encrypted copy, so you can use it from another device. Your keys for each chain are derived from that seed (BIP32 for Bitcoin and Ethereum, SLIP-0010 for Solana) and only their public keys are registered with Covenant.',
          'Choose an escrow password you do not use anywhere else and keep it safe: we cannot reset it, because we never have it. API users may instead register their own public keys and sign with their own tools.',
        ],
      },
      {
        id: 'bitcoin',
        title: 'Bitcoin',
        blocks: [
          'Each Bitcoin leg has its own 2-of-3 multisig address (P2WSH, a native SegWit address starting with bc1). Releases and refunds are partially signed transactions (PSBT): the giving party signs, Covenant co-signs and broadcasts.',
          {
            list: [
              'Payout and refund addresses: an address of a wallet you control (bc1…, 1… or 3…).',
              'The network fee of a payout comes out of the amount paid, at the rate the network asks; you see the amount, the 0.01% fee and the network fee before you sign. An output too small to spend (below the dust limit) is added to the network fee, and the deal room says so.',
              'Deposit: send BTC to the deal’s address with a normal fee rate, so that it confirms well before the deadline. Count on 20-60 minutes for 2 confirmations.',
            ],
          },
        ],
      },
      {
        id: 'ethereum',
        title: 'Ethereum',
        blocks: [
          'Each Ethereum leg is a small escrow contract created for the deal. Its address is known before it is deployed, so that address is your deposit address and any wallet or exchange can pay it. The contract holds ETH or one ERC-20 token (USDC, USDT, WETH or WBTC), pays out only with two of the three signatures, and sends the fee in the same transaction. After the deadline anyone can trigger its refund.',
          {
            list: [
              'Payout and refund addresses: a 0x address of a wallet you control.',
              'Send the agreed token itself: USDC to a USDC leg, WBTC to a WBTC leg. ETH sent to a token leg is a wrong-token deposit.',
              'Keep some ETH in your wallet for gas, with a margin of about 20% over the wallet’s estimate.',
            ],
          },
        ],
      },
      {
        id: 'solana',
        title: 'Solana',
        blocks: [
          'Each Solana leg is a token account owned by an SPL Token multisig of the buyer, the seller and Covenant; a release needs two of their signatures.',
          {
            list: [
              'Payout and refund addresses: the address of a Solana wallet you control; tokens are paid to its associated token account.',
              'Send SOL, USDC or USDT as agreed, and keep a little SOL for transaction fees.',
            ],
          },
        ],
      },
      {
        id: 'test-first',
        title: 'Before you send',
        blocks: [
          'Copy deposit addresses with the copy button rather than by hand, and compare the first and last characters after pasting. Check the chain and token twice: a token sent on the wrong chain cannot be recovered by the escrow.',
        ],
      },
    ],
  },
  {
    id: 'security',
    label: 'Security',
    summary: 'Protect your account, your escrow password and your addresses.',
    sections: [
      {
        id: 'account-security',
        title: 'Protect your account',
        blocks: [
          {
            list: [
              'Use a long, unique password, ideally from a password manager. Passwords are stored only as argon2id hashes.',
              'Add a second factor: Covenant supports time-based one-time passwords (TOTP) from an authenticator app. Once enrolled, a sign-in needs the six-digit code as well as the password.',
              'Sign out on shared computers. Signing out ends the session on the server, not only in the browser.',
            ],
          },
        ],
      },
      {
        id: 'phishing',
        title: 'Recognise genuine messages',
        blocks: [
          'Covenant never asks for your password, your escrow password, your seed or a private key, by e-mail, chat or phone. Our e-mails link only to the address of this site. Deposit addresses are shown only on the deal page after you sign in; an address sent to you by message is not a Covenant escrow address.',
        ],
      },
      {
        id: 'address-hygiene',
        title: 'Addresses and approvals',
        blocks: [
          'Payout and refund addresses are part of the agreed terms and cannot change after funding, so set them carefully. When you approve a release, your wallet shows what you sign: the deal, the amounts and the receiving addresses. Read it before you confirm.',
        ],
      },
      {
        id: 'data-protection',
        title: 'How we protect your data',
        blocks: [
          'Connections use HTTPS. Customer Information Sheets and uploaded documents are encrypted at rest with AES-256-GCM, each file under its own data key. Every deal keeps a hash-chained audit trail. Report a suspected vulnerability to security@covenant.trade.',
        ],
      },
    ],
  },
];
