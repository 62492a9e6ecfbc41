import { Activity, BadgeCheck, Coins, FileCheck, Globe, Layers, Lock, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { ContentPage } from '@/components/layouts/content-page.js';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { CallToAction } from '../components/call-to-action.js';
import { type FeatureCard, FeatureCardGrid } from '../components/feature-card-grid.js';

const features: FeatureCard[] = [
  {
    icon: FileCheck,
    title: 'CIS Exchange',
    text: 'Both parties share a Customer Information Sheet and approve the other’s before any terms are proposed, so you know who you trade with before money moves.',
    points: ['Legal name, entity, jurisdiction, source of funds', 'Encrypted at rest with AES-256-GCM'],
  },
  {
    icon: Lock,
    title: 'Automated Escrow',
    text: 'When terms are agreed, an escrow is created for the deal with its own deposit address per leg. Deposits are detected on-chain; settlement or refund follows the agreed rules.',
    points: ['Automatic refund at the funding deadline', 'Release only with two of three keys'],
  },
  {
    icon: Layers,
    title: 'Multi-Chain Protocol',
    text: 'One deal lifecycle over three custody designs: a P2WSH 2-of-3 multisig on Bitcoin, a per-deal escrow contract on Ethereum, an SPL Token multisig on Solana.',
    points: ['Both legs released together', 'Cross-chain trades without a bridge'],
  },
  {
    icon: Globe,
    title: 'Multi-Chain Support',
    text: 'Trade BTC, ETH, WETH, WBTC or SOL against USDC or USDT, with the stablecoin on Ethereum or Solana.',
    points: ['Asset chains: Bitcoin, Ethereum, Solana', 'Stable chains: Ethereum, Solana'],
  },
  {
    icon: ShieldCheck,
    title: 'KYC Verification',
    text: 'Every trader passes KYC and AML checks. The tier sets the size of a single trade: Basic up to $10,000, Enhanced up to $100,000, Institutional by agreement.',
  },
  {
    icon: BadgeCheck,
    title: 'Verified Traders',
    text: 'Find Partners lists only traders who are verified and have completed KYC. You pick your counterparty by username; nobody is matched to you without your choice.',
  },
  {
    icon: Activity,
    title: 'Real-Time Processing',
    text: 'Deposits are watched on each chain as they happen and counted once confirmed: 2 confirmations on Bitcoin, finalized blocks on Ethereum and Solana. Each step appears on the deal at once.',
  },
  {
    icon: Coins,
    title: 'Low Fees',
    text: 'A flat 0.01% of each leg, rounded down to the smallest unit and deducted at settlement. No deposit, listing or withdrawal fee from us; only the networks’ own fees.',
  },
];

export function FeaturesRoute() {
  return (
    <ContentPage
      wide
      eyebrow="Features"
      title="Features"
      intro="What Covenant offers for over-the-counter trades: an exchange of Customer Information Sheets, automated escrow on Bitcoin, Ethereum and Solana, KYC verification and a flat 0.01% platform fee."
    >
      <FeatureCardGrid cards={features} label="Features" />
      <CallToAction
        id="features-next"
        title="See a trade from start to finish"
        text="Six steps from the first CIS to the final settlement, and what protects you at each one."
      >
        <Button asChild size="lg">
          <Link to={paths.howItWorks}>How It Works</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to={paths.security}>Security</Link>
        </Button>
      </CallToAction>
    </ContentPage>
  );
}
