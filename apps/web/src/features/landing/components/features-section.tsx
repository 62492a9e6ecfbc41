import { FileCheck, Globe, Lock, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { paths } from '@/config/paths.js';
import { SectionHeading } from './section-heading.js';

const features = [
  {
    icon: FileCheck,
    title: 'CIS Exchange',
    text: 'Both parties share and approve a Customer Information Sheet before they negotiate terms.',
  },
  {
    icon: Lock,
    title: 'Automated Escrow',
    text: 'Each deal gets its own deposit address; funds are released only at settlement.',
  },
  {
    icon: Globe,
    title: 'Multi-Chain Support',
    text: 'Trade BTC, ETH and SOL against USDC or USDT on Ethereum and Solana.',
  },
  {
    icon: ShieldCheck,
    title: 'KYC Verification',
    text: 'Every counterparty is verified before trading, with limits that follow their tier.',
  },
];

export function FeaturesSection() {
  return (
    <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
      <SectionHeading
        id="features-heading"
        eyebrow="Features"
        title="Built for six- and seven-figure trades"
        intro="Everything a large over-the-counter trade needs, from the first introduction to the final payout."
      />
      <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {features.map(({ icon: Icon, title, text }) => (
          <li key={title}>
            <Card className="h-full">
              <Icon aria-hidden="true" className="size-6 text-primary" />
              <h3 className="mt-4 font-semibold">{title}</h3>
              <p className="mt-2 text-muted text-sm">{text}</p>
            </Card>
          </li>
        ))}
      </ul>
      <Button asChild variant="outline" className="mt-10">
        <Link to={paths.features}>Explore All Features</Link>
      </Button>
    </section>
  );
}
