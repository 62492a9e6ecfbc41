import type { DocumentSection } from '@/content/document.js';

export const privacyPolicySections: DocumentSection[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    blocks: [
      'Covenant operates this website and the trading platform on it, and is the controller of the personal data described here. Write to privacy@covenant.trade about anything in this policy.',
    ],
  },
  {
    id: 'data-we-collect',
    title: 'What we collect',
    blocks: [
      {
        list: [
          'Account data: your e-mail address, password (stored only as an argon2id hash), and the first name, last name and username you choose to give.',
          'Verification data: the identity information and documents you submit for KYC, and the Customer Information Sheets you upload for deals (legal name, entity type, jurisdiction, source of funds, trading preferences).',
          'Transaction data: your deals, their terms and status history, the payout, refund and deposit addresses involved, the public keys of your escrow wallet, and the transaction hashes of deposits and settlements.',
          'Messages: what you send us through the contact and support forms, and our replies.',
          'Technical logs: IP address, browser type, the time and outcome of requests, and sign-in events.',
        ],
      },
      'We never receive your escrow password, your escrow seed or your private keys: they are created and encrypted in your browser.',
    ],
  },
  {
    id: 'why-we-use-it',
    title: 'Why we use it',
    blocks: [
      {
        list: [
          'To provide the service you signed up for: your account, your deals, the escrow and settlement (performance of our contract with you).',
          'To meet our legal obligations: KYC and AML checks, sanctions screening, the Travel Rule for transfers of $1,000 or more, and record keeping.',
          'To keep the platform secure: detecting abuse, rate limiting, investigating incidents (our legitimate interest).',
          'To answer you when you contact us.',
        ],
      },
      'We do not sell personal data, and we do not use advertising trackers.',
    ],
  },
  {
    id: 'who-sees-it',
    title: 'Who sees it',
    blocks: [
      {
        list: [
          'Your counterparty on a deal sees your username, your Customer Information Sheet for that deal, and the addresses in the agreed terms.',
          'Our compliance staff and, in a dispute, the assigned mediator see what they need to decide.',
          'Service providers who process data on our instructions, such as hosting and e-mail delivery, under contracts that require them to protect it.',
          'Other virtual-asset service providers, where the Travel Rule requires originator and beneficiary information to travel with a transfer.',
          'Authorities, when the law requires us to disclose it.',
        ],
      },
      'Public blockchains are public: deposits and settlements to escrow addresses are visible to anyone, although the chain does not show who the parties are.',
    ],
  },
  {
    id: 'retention',
    title: 'How long we keep it',
    blocks: [
      {
        list: [
          'Account data: for the life of your account, plus 7 years after it is closed.',
          'Transaction records: 10 years from the transaction.',
          'Technical logs: 2 years.',
          'The position your phone shares when you check in at a deal’s meeting: 90 days after the check-in (longer only while a dispute about that deal is open), then erased; whether you were within the meeting’s radius stays with the deal’s records.',
        ],
      },
      'These periods follow our record-keeping obligations under anti-money-laundering law. When a period ends, the data is deleted or irreversibly anonymised.',
    ],
  },
  {
    id: 'security',
    title: 'How we protect it',
    blocks: [
      'All traffic uses HTTPS. Customer Information Sheets and uploaded documents are encrypted at rest with AES-256-GCM, each file under its own data key. Access by staff is limited to their role and recorded. Every change to a deal is kept in a hash-chained audit trail.',
    ],
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    blocks: [
      'You may ask for a copy of your personal data, have it corrected, receive it in a portable format, object to its use, or have it erased. Erasure is limited by the retention periods above while the law requires us to keep the records.',
      'We answer every request within 30 days. Write to privacy@covenant.trade from the address of your account, or use the contact form. You may also complain to your data protection authority.',
    ],
  },
  {
    id: 'browser-storage',
    title: 'Cookies and browser storage',
    blocks: [
      'We keep your session in your browser’s local storage so that you stay signed in, and remove it when you sign out. We set no advertising or analytics cookies.',
    ],
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    blocks: [
      'When we change this policy we update the effective date above, and we tell account holders by e-mail about changes that affect them before they apply.',
    ],
  },
];
