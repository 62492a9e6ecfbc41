import type { DocumentSection } from '@/content/document.js';

export const riskDisclosureSections: DocumentSection[] = [
  {
    id: 'summary',
    title: 'Summary',
    blocks: [
      'Crypto assets can lose much or all of their value, and transfers on a blockchain cannot be reversed. Escrow reduces the risk that your counterparty takes your funds without delivering; it does not remove the other risks below. Trade only what you can afford to lose, and take independent advice if you are unsure.',
    ],
  },
  {
    id: 'market',
    title: 'Market risk',
    blocks: [
      'The amounts of both legs are fixed when the terms are agreed. Prices keep moving while the escrow is funded and until settlement, which can take hours; the trade may be worth more or less to you at settlement than when you agreed it. There is no margin, no stop-loss and no price protection.',
    ],
  },
  {
    id: 'counterparty',
    title: 'Counterparty risk',
    blocks: [
      'Your counterparty may fail to fund its leg. Your deposit is then returned at the funding deadline without any platform fee, but it is locked until then and you bear the market movement and network fees in the meantime. A counterparty may also refuse to approve the release after funding; a dispute then decides, which takes time.',
    ],
  },
  {
    id: 'technology',
    title: 'Blockchain and smart-contract risk',
    blocks: [
      {
        list: [
          'Networks can be congested, delayed or halted; fees can rise sharply; a chain can reorganise recent blocks, which is why we wait for confirmations.',
          'The Ethereum escrow is a smart contract. Software can contain defects despite careful design and testing.',
          'Transfers sent to a wrong address, on a wrong chain or in a wrong token may be lost permanently.',
        ],
      },
    ],
  },
  {
    id: 'stablecoins',
    title: 'Stablecoin risk',
    blocks: [
      'USDC and USDT are issued by private companies. They can trade below one US dollar, and their issuers can freeze tokens held at any address, including an escrow address, by order of an authority or on their own decision. Covenant cannot reverse such a freeze.',
    ],
  },
  {
    id: 'keys',
    title: 'Key and password risk',
    blocks: [
      'Your escrow key is protected by an escrow password that only you know. If you lose it, we cannot recover it, and your part of an escrow may then need a dispute decision to be released or refunded. Anyone who learns your password and escrow password can act as you.',
    ],
  },
  {
    id: 'regulatory',
    title: 'Legal and regulatory risk',
    blocks: [
      'The law on crypto assets is changing in many countries. A change may restrict trades, make them taxable in new ways, or require us to stop offering the service in a region. You are responsible for your own taxes.',
    ],
  },
  {
    id: 'meetings',
    title: 'In-person meetings',
    blocks: [
      'If you choose to meet your counterparty, you travel and meet at your own risk. Meet in a public or professionally secured place, tell someone where you are, and never bring keys, seeds or devices holding them that the meeting does not need.',
    ],
  },
  {
    id: 'no-protection',
    title: 'No deposit protection',
    blocks: [
      'Crypto assets held in escrow are not bank deposits and are not covered by any deposit guarantee or investor compensation scheme.',
    ],
  },
];
