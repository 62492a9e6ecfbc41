import { FileLock2, Fingerprint, KeyRound, MapPin, ScrollText, UserCheck } from 'lucide-react';
import { Link } from 'react-router';
import { ContentPage } from '@/components/layouts/content-page.js';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { CallToAction } from '../components/call-to-action.js';
import { type FeatureCard, FeatureCardGrid } from '../components/feature-card-grid.js';

const safeguards: FeatureCard[] = [
  {
    icon: KeyRound,
    title: 'Two-of-Three Escrow',
    text: 'Every escrow is held under three keys (buyer, seller and Covenant’s mediator key) and any movement needs two. No single party can take the funds: not your counterparty, not Covenant.',
  },
  {
    icon: Fingerprint,
    title: 'Keys You Hold',
    text: 'Your escrow key is created in your browser and encrypted with an escrow password we never receive. We keep only the encrypted copy and your public keys.',
  },
  {
    icon: MapPin,
    title: 'A Deposit Address per Deal',
    text: 'Each leg of each deal gets its own address: a P2WSH multisig on Bitcoin, a per-deal escrow contract on Ethereum, a multisig-owned token account on Solana.',
  },
  {
    icon: UserCheck,
    title: 'KYC and AML Checks',
    text: 'Both parties are verified before they trade, trade sizes follow the KYC tier, and transfers of $1,000 or more carry the Travel Rule information.',
  },
  {
    icon: FileLock2,
    title: 'Encryption',
    text: 'Traffic uses HTTPS. Customer Information Sheets and documents are encrypted at rest with AES-256-GCM, each under its own key; passwords are stored only as argon2id hashes.',
  },
  {
    icon: ScrollText,
    title: 'Immutable Audit Trail',
    text: 'Every step of a deal, who took it and why, is appended to its audit trail. Each entry carries the hash of the previous one, so any change to history is detectable. Mediators decide disputes from it.',
  },
];

const networkFees = [
  {
    chain: 'Bitcoin',
    fee: 'Miner fee, priced per virtual byte by the market at the time of sending.',
  },
  {
    chain: 'Ethereum',
    fee: 'Gas, paid in ETH. Token transfers (USDC, USDT, WETH, WBTC) use more gas than ETH; keep about 20% above your wallet’s estimate.',
  },
  {
    chain: 'Solana',
    fee: 'A small base fee per signature, paid in SOL.',
  },
];

export function SecurityRoute() {
  return (
    <ContentPage
      wide
      eyebrow="Security"
      title="Security"
      intro="How Covenant protects escrowed funds and personal data: escrow that needs two of three keys to move, KYC and AML checks, and an audit trail of every deal."
    >
      <FeatureCardGrid cards={safeguards} label="Safeguards" columns={3} />

      <section aria-labelledby="fees-heading" className="mt-16 grid gap-8 lg:grid-cols-2">
        <div>
          <h2 id="fees-heading" className="font-semibold text-2xl tracking-tight">
            Fees
          </h2>
          <p className="mt-3 text-muted">
            One platform fee, the same for every trade, and the networks’ own fees. Nothing else.
          </p>
          <div className="mt-6 rounded-xl border border-primary/30 bg-primary/5 p-6">
            <p className="font-semibold text-4xl text-primary">0.01%</p>
            <p className="mt-1 font-medium">platform fee</p>
            <p className="mt-3 text-muted text-sm leading-relaxed">
              One basis point of each leg, rounded down to the token’s smallest unit, deducted from that leg’s
              payout at settlement and paid to Covenant’s fee address on that chain: one for Ethereum and
              ERC-20 tokens, one for Bitcoin, one for Solana. A cancelled or refunded deal pays no platform
              fee.
            </p>
          </div>
        </div>
        <div>
          <h3 className="font-semibold text-lg">Network fees per chain</h3>
          <p className="mt-2 text-muted text-sm">
            Every transaction pays its chain’s fee to the network, not to Covenant: you pay it on the deposits
            you send, and release and refund transactions carry it too.
          </p>
          <dl className="mt-4 divide-y divide-border rounded-xl border border-border">
            {networkFees.map((row) => (
              <div key={row.chain} className="grid gap-1 p-4 sm:grid-cols-[8rem_1fr]">
                <dt className="font-medium">{row.chain}</dt>
                <dd className="text-muted text-sm">{row.fee}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <CallToAction
        id="security-next"
        title="Read the security practices"
        text="Protecting your account and addresses, recognising genuine messages, and how custody works on each chain."
      >
        <Button asChild size="lg">
          <Link to={`${paths.documentation}?tab=security`}>Security Guide</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to={paths.howItWorks}>How It Works</Link>
        </Button>
      </CallToAction>
    </ContentPage>
  );
}
