import { BedDouble, Car, Plane, QrCode } from 'lucide-react';
import { Link } from 'react-router';
import { ContentPage } from '@/components/layouts/content-page.js';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { CallToAction } from '../components/call-to-action.js';
import { type FeatureCard, FeatureCardGrid } from '../components/feature-card-grid.js';

const services: FeatureCard[] = [
  {
    icon: Plane,
    title: 'Flights',
    text: 'Return flights for the travelling party, booked once both parties approve the quote.',
  },
  {
    icon: BedDouble,
    title: 'Hotels',
    text: 'Accommodation near the meeting place for the nights the meeting needs.',
  },
  {
    icon: Car,
    title: 'Ground transport',
    text: 'Airport transfers and transport to and from the meeting.',
  },
  {
    icon: QrCode,
    title: 'QR and GPS check-in',
    text: 'On the day, both parties check in with the deal’s QR code and their location. Settlement waits for both check-ins.',
  },
];

const steps = [
  'When you agree the terms, tick "Require in-person meeting" and name the meeting location. The meeting becomes part of the terms both parties accept.',
  'We send a travel quote with flights, hotel and ground transport, itemised. Nothing is booked until both parties approve it.',
  'The approved cost is paid from the escrowed funds, so neither side advances money to the other or to us before the trade is secured.',
  'Both legs of the escrow are funded as usual. At the meeting, each party checks in by scanning the deal’s QR code while sharing their GPS location.',
  'With both check-ins recorded, settlement proceeds as for any deal. If the meeting does not take place, either party can open a dispute for a mediator to decide.',
];

const leadTimes = [
  ['Within one country', '1-2 days'],
  ['Within one region', '1-3 days'],
  ['Intercontinental', '2-5 days'],
  ['Visas or special security arrangements', '3-7 days'],
];

export function MeetRoute() {
  return (
    <ContentPage
      wide
      eyebrow="Covenant Meet"
      title="Covenant Meet"
      intro="Covenant Meet arranges an optional in-person meeting for a trade, with travel paid from escrow once both parties approve it."
    >
      <FeatureCardGrid cards={services} label="Travel services" />

      <div className="mt-16 grid gap-10 lg:grid-cols-[3fr_2fr]">
        <section aria-labelledby="meet-steps-heading">
          <h2 id="meet-steps-heading" className="font-semibold text-2xl tracking-tight">
            How a meeting is arranged
          </h2>
          <ol className="mt-6 list-decimal space-y-3 pl-5 text-muted leading-relaxed marker:font-semibold marker:text-primary">
            {steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <p className="mt-6 text-sm">
            <Link to={paths.trading} className="font-medium text-primary underline-offset-4 hover:underline">
              Create a trade with an in-person meeting
            </Link>{' '}
            — tick "Require in-person meeting" in the Create Trade form; the deal room then has a Meeting
            panel for travel and check-in.
          </p>
        </section>
        <section aria-labelledby="meet-durations-heading">
          <h2 id="meet-durations-heading" className="font-semibold text-2xl tracking-tight">
            Typical lead times
          </h2>
          <p className="mt-3 text-muted text-sm">
            From both approvals of the quote to the earliest meeting date we can confirm.
          </p>
          <dl className="mt-4 divide-y divide-border rounded-xl border border-border">
            {leadTimes.map(([distance, duration]) => (
              <div key={distance} className="flex items-center justify-between gap-4 p-4">
                <dt className="text-sm">{distance}</dt>
                <dd className="font-semibold text-primary">{duration}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>

      <CallToAction
        id="meet-next"
        title="Planning a trade with a meeting?"
        text="Set the meeting in the trade’s terms, or talk to us first about the place and the dates."
      >
        <Button asChild size="lg">
          <Link to={paths.trading}>Start Trading</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to={paths.howItWorks}>How It Works</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to={paths.contact}>Contact Us</Link>
        </Button>
      </CallToAction>
    </ContentPage>
  );
}
