import { Link } from 'react-router';
import { ContentPage } from '@/components/layouts/content-page.js';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { CallToAction } from '../components/call-to-action.js';

const steps = [
  {
    title: 'CIS upload and review',
    badge: 'Required',
    text: 'Each party uploads a Customer Information Sheet: legal name, individual or company, jurisdiction, source of funds, assets and size range, preferred chains, settlement window. Each reviews the other’s.',
  },
  {
    title: 'CIS approval',
    badge: 'Required',
    text: 'Both parties approve the other’s sheet, or reject it with a comment so it can be corrected. Nothing is negotiated until both sheets are approved.',
  },
  {
    title: 'Terms proposal',
    badge: 'Automated',
    text: 'One party proposes amounts, chains, the funding deadline (1-168 hours) and whether to meet; the other accepts that exact version or counters. Payout and refund addresses complete the terms.',
  },
  {
    title: 'Escrow deployment',
    badge: 'Secure',
    text: 'On agreement the escrow is created with one deposit address per leg. The seller deposits the asset, the buyer the stablecoin. If both legs are not funded by the deadline, every deposit is refunded automatically.',
  },
  {
    title: 'Optional in-person meeting',
    badge: 'Optional',
    text: 'If the terms require a meeting, Covenant Meet arranges it, and both parties check in on site by QR code and GPS before settlement.',
  },
  {
    title: 'Settlement',
    badge: 'Final',
    text: 'Each party approves the release of its leg; Covenant co-signs both legs together. The buyer receives the asset, the seller the stablecoin, each minus the 0.01% fee.',
  },
];

const specifications = [
  ['Asset chains', 'Bitcoin (BTC), Ethereum (ETH, WETH, WBTC), Solana (SOL)'],
  ['Stable chains', 'Ethereum and Solana: USDC, USDT'],
  ['Bitcoin escrow', 'P2WSH 2-of-3 multisig per deal leg; PSBT release'],
  [
    'Ethereum escrow',
    'Escrow contract per deal leg (EIP-1167 clone at a CREATE2 address); 2-of-3 EIP-712 approvals',
  ],
  ['Solana escrow', 'Token account owned by an SPL Token 2-of-3 multisig'],
  ['Confirmations', 'Bitcoin ≥ 2 (about 20-60 minutes); Ethereum and Solana finalized'],
  ['Funding deadline', '1 to 168 hours after terms are agreed; automatic refund afterwards'],
  ['Amount precision', 'Asset 8 decimals, stablecoin 2 decimals; stored in base units'],
  ['Maximum per side', '1,000,000 units, within the KYC tier limit'],
  ['Platform fee', '0.01% of each leg, rounded down, deducted at settlement'],
  ['Encryption', 'AES-256-GCM for documents at rest; HTTPS in transit'],
  ['Audit trail', 'Append-only, each entry chained to the previous by hash'],
];

export function HowItWorksRoute() {
  return (
    <ContentPage
      wide
      eyebrow="How It Works"
      title="How It Works"
      intro="The six steps of a Covenant trade, from exchanging Customer Information Sheets to the final settlement."
    >
      <ol aria-label="The six steps" className="mt-12 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
        {steps.map((step, index) => (
          <li key={step.title} className="rounded-xl border border-border bg-surface p-6">
            <div className="flex items-center justify-between gap-3">
              <span className="flex size-9 items-center justify-center rounded-full border border-primary/40 font-semibold text-primary">
                {index + 1}
              </span>
              <span className="rounded-full border border-border px-2.5 py-0.5 text-muted text-xs">
                {step.badge}
              </span>
            </div>
            <h2 className="mt-4 font-semibold text-lg">{step.title}</h2>
            <p className="mt-2 text-muted text-sm leading-relaxed">{step.text}</p>
          </li>
        ))}
      </ol>

      <section aria-labelledby="specifications-heading" className="mt-16">
        <h2 id="specifications-heading" className="font-semibold text-2xl tracking-tight">
          Technical specifications
        </h2>
        <dl className="mt-6 divide-y divide-border rounded-xl border border-border">
          {specifications.map(([term, value]) => (
            <div key={term} className="grid gap-1 p-4 sm:grid-cols-[12rem_1fr]">
              <dt className="font-medium">{term}</dt>
              <dd className="text-muted text-sm">{value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <CallToAction
        id="how-it-works-next"
        title="Ready for your first trade?"
        text="Create an account, confirm your e-mail address and complete KYC; then choose a verified partner."
      >
        <Button asChild size="lg">
          <Link to={paths.signUp}>Create Account</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to={paths.security}>Security</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to={paths.features}>Features</Link>
        </Button>
      </CallToAction>
    </ContentPage>
  );
}
