import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { SectionHeading } from './section-heading.js';

const steps = [
  { title: 'Upload your CIS', text: 'Share your Customer Information Sheet and review your counterparty’s.' },
  { title: 'Approve the CIS', text: 'Both parties approve each other’s sheet before any negotiation.' },
  { title: 'Agree on terms', text: 'Amounts, chains and the funding deadline are proposed and accepted.' },
  { title: 'Fund the escrow', text: 'Each side deposits to the deal’s own escrow address.' },
  {
    title: 'Meet, if you wish',
    text: 'An optional in-person meeting, with travel arranged through Covenant Meet.',
  },
  { title: 'Settle', text: 'Both legs are released together, minus the 0.01% platform fee.' },
];

export function HowItWorksSection() {
  return (
    <section aria-labelledby="how-it-works-heading" className="border-border border-y bg-surface">
      <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <SectionHeading
          id="how-it-works-heading"
          eyebrow="How it works"
          title="Six steps from introduction to settlement"
          intro="Each step is recorded, so both parties always know where their deal stands."
        />
        <ol className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="flex gap-4">
              <span
                aria-hidden="true"
                className="flex size-8 shrink-0 items-center justify-center rounded-full border border-primary/40 font-semibold text-primary text-sm"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold">{step.title}</h3>
                <p className="mt-1 text-muted text-sm">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <Button asChild className="mt-10">
          <Link to={paths.trading}>Start Your First Trade</Link>
        </Button>
      </div>
    </section>
  );
}
