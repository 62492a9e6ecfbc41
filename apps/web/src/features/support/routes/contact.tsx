import { Clock, Timer } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { ContentPage } from '@/components/layouts/content-page.js';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { LiveChatWidget } from '@/features/live-chat/components/live-chat-widget.js';
import { ChannelCard } from '../components/channel-card.js';
import { specialisedTeams, supportChannels, supportHours } from '../components/support-channels.js';

// The form brings its validation library; the page shows its text and channels without waiting for it.
const ContactForm = lazy(async () => ({
  default: (await import('../components/contact-form.js')).ContactForm,
}));

const responseTargets = [
  ['Urgent', 'under 1 hour'],
  ['High', 'under 2 hours'],
  ['Normal', 'under 4 hours'],
  ['Low', 'under 24 hours'],
] as const;

export function ContactRoute() {
  return (
    <ContentPage
      wide
      eyebrow="Support"
      title="Contact"
      intro="How to reach the Covenant team about your account, a trade or a partnership."
    >
      <ul aria-label="Contact channels" className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {Object.values(supportChannels).map((channel) => (
          <li key={channel.title}>
            <ChannelCard
              channel={channel}
              action={channel === supportChannels.liveChat ? <LiveChatWidget /> : undefined}
            />
          </li>
        ))}
      </ul>

      <div className="mt-12 grid gap-8 lg:grid-cols-[3fr_2fr]">
        <Card>
          <h2 className="font-semibold text-xl">Send us a message</h2>
          <p className="mt-1 mb-6 text-muted text-sm">
            You get a reference number at once and a confirmation by e-mail. For questions already answered,
            the{' '}
            <Link to={paths.helpCenter} className="text-primary underline underline-offset-4">
              Help Center
            </Link>{' '}
            is quicker.
          </p>
          <Suspense
            fallback={
              <div className="flex min-h-[36rem] items-center justify-center">
                <Spinner label="Loading the contact form" />
              </div>
            }
          >
            <ContactForm />
          </Suspense>
        </Card>

        <div className="space-y-8">
          <section aria-labelledby="hours-heading" className="rounded-xl border border-border p-6">
            <div className="flex items-center gap-2">
              <Clock aria-hidden="true" className="size-5 text-primary" />
              <h2 id="hours-heading" className="font-semibold">
                Support hours
              </h2>
            </div>
            <dl className="mt-4 space-y-2 text-sm">
              {supportHours.map(([days, hours]) => (
                <div key={days} className="flex justify-between gap-4">
                  <dt className="text-muted">{days}</dt>
                  <dd>{hours}</dd>
                </div>
              ))}
            </dl>
          </section>

          <section aria-labelledby="targets-heading" className="rounded-xl border border-border p-6">
            <div className="flex items-center gap-2">
              <Timer aria-hidden="true" className="size-5 text-primary" />
              <h2 id="targets-heading" className="font-semibold">
                Response times by priority
              </h2>
            </div>
            <dl className="mt-4 space-y-2 text-sm">
              {responseTargets.map(([priority, target]) => (
                <div key={priority} className="flex justify-between gap-4">
                  <dt className="text-muted">{priority}</dt>
                  <dd>{target}</dd>
                </div>
              ))}
            </dl>
          </section>

          <section aria-labelledby="teams-heading" className="rounded-xl border border-border p-6">
            <h2 id="teams-heading" className="font-semibold">
              Specialised teams
            </h2>
            <ul className="mt-4 space-y-4 text-sm">
              {specialisedTeams.map((team) => (
                <li key={team.team}>
                  <p className="font-medium">{team.team}</p>
                  <p className="text-muted">{team.text}</p>
                  <a href={`mailto:${team.email}`} className="text-primary underline underline-offset-4">
                    {team.email}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        </div>
      </div>
    </ContentPage>
  );
}
