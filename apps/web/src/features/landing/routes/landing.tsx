import { PageTitle } from '@/components/page-title.js';
import { FeaturesSection } from '../components/features-section.js';
import { HeroSection } from '../components/hero-section.js';
import { HowItWorksSection } from '../components/how-it-works-section.js';
import { SecuritySection } from '../components/security-section.js';

// The header and footer come from the site layout; the sections follow the spec's order.
export function LandingRoute() {
  return (
    <>
      <PageTitle title="OTC crypto trading with escrow" />
      <HeroSection />
      <FeaturesSection />
      <HowItWorksSection />
      <SecuritySection />
    </>
  );
}
