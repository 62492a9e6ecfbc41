import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';

export function HeroSection() {
  return (
    <section aria-labelledby="hero-heading" className="relative overflow-hidden border-border border-b">
      {/* The glow is a radial gradient, not a blurred disc: a 64 px blur filter over this area cost the
          page's first paint most of 100 ms where the browser paints in software (docs/performance.md). */}
      <div
        aria-hidden="true"
        className="-translate-x-1/2 pointer-events-none absolute top-0 left-1/2 h-96 w-[48rem] max-w-full bg-radial from-primary/10 to-transparent to-70%"
      />
      <div className="relative mx-auto max-w-6xl px-4 py-20 text-center sm:px-6 sm:py-28">
        <p className="inline-flex rounded-full border border-border bg-surface px-3 py-1 text-muted text-xs sm:text-sm">
          OTC desk for verified traders
        </p>
        <h1
          id="hero-heading"
          className="mx-auto mt-6 max-w-3xl text-balance font-semibold text-4xl tracking-tight sm:text-6xl"
        >
          Large crypto trades, settled through escrow
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-balance text-lg text-muted">
          Covenant connects verified counterparties for over-the-counter trades of BTC, ETH and SOL against
          USDC and USDT, and holds both sides in escrow until settlement.
        </p>
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to={paths.trading}>
              Start Trading
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={paths.features}>Learn More</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}
