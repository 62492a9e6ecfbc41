import { KeyRound, ScrollText, UserCheck } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { SectionHeading } from './section-heading.js';

const safeguards = [
  {
    icon: KeyRound,
    title: 'Two of three keys',
    text: 'Escrowed funds move only with two of the buyer’s, the seller’s and the platform’s keys.',
  },
  {
    icon: UserCheck,
    title: 'Verified counterparties',
    text: 'KYC and AML checks come before the first trade.',
  },
  {
    icon: ScrollText,
    title: 'Complete audit trail',
    text: 'Every step of a deal, and who took it, is recorded and cannot be altered.',
  },
];

export function SecuritySection() {
  return (
    <section aria-labelledby="security-heading" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
      <SectionHeading
        id="security-heading"
        eyebrow="Security"
        title="No single party can move the funds"
        intro="Not the buyer, not the seller, and not Covenant."
      />
      <ul className="mt-10 grid gap-6 md:grid-cols-3">
        {safeguards.map(({ icon: Icon, title, text }) => (
          <li key={title} className="rounded-xl border border-border p-6">
            <Icon aria-hidden="true" className="size-6 text-primary" />
            <h3 className="mt-4 font-semibold">{title}</h3>
            <p className="mt-2 text-muted text-sm">{text}</p>
          </li>
        ))}
      </ul>
      <Button asChild variant="outline" className="mt-10">
        <Link to={paths.security}>Learn More About Security</Link>
      </Button>
    </section>
  );
}
