import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title.js';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { ApiKeysSection } from '../components/api-keys-section.js';
import { WebhooksSection } from '../components/webhooks-section.js';

// Only reached through the router's guard, so a user is always present here.
export function ApiKeysRoute() {
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Get API Key" />
      <Button asChild variant="link">
        <Link to={paths.trading}>
          <ArrowLeft aria-hidden />
          Back to Trading
        </Link>
      </Button>
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
