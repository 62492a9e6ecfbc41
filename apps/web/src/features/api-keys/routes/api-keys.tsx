import { Link } from 'react-router';
import { BackLink } from '@/components/back-link.js';
import { PageTitle } from '@/components/page-title.js';
import { paths } from '@/config/paths.js';
import { ApiKeysSection } from '../components/api-keys-section.js';
import { WebhooksSection } from '../components/webhooks-section.js';

// Only reached through the router's guard, so a user is always present here.
export function ApiKeysRoute() {
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Get API Key" />
      <BackLink to={paths.trading}>Back to Trading</BackLink>
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Get API Key</h1>
        <p className="mt-2 text-muted">
          Keys and webhooks for the REST API, documented in the{' '}
          <Link to={paths.apiReference} className="text-primary underline underline-offset-4">
            API reference
          </Link>
          .
        </p>
      </div>
      <ApiKeysSection />
      <WebhooksSection />
    </div>
  );
}
