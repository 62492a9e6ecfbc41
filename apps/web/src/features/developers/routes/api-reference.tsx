import { Gauge, KeyRound, Link2 } from 'lucide-react';
import { Link } from 'react-router';
import { ContentPage } from '@/components/layouts/content-page.js';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.js';
import { paths } from '@/config/paths.js';
import { useOrigin } from '@/hooks/use-origin.js';
import { openApiDocumentPath, useOpenApiDocument } from '../api/get-openapi-document.js';
import { listEndpoints } from '../api/list-endpoints.js';
import { CodeBlock } from '../components/code-block.js';
import { codeExamples } from '../components/code-examples.js';
import { EndpointList } from '../components/endpoint-list.js';
import { verifyJavascript, verifyPython, webhookEventExamples } from '../components/webhook-docs.js';

const httpErrors = [
  ['400', 'Bad Request', 'The body or a parameter is invalid; details names the fields.'],
  ['401', 'Unauthorized', 'No token, or an expired or invalid one.'],
  ['403', 'Forbidden', 'The token is valid but may not do this, e.g. another party’s deal.'],
  ['404', 'Not Found', 'No such resource, or not one of yours.'],
  ['409', 'Conflict', 'The resource is not in a state that allows this.'],
  ['429', 'Rate Limited', 'Too many requests; wait for the time in Retry-After.'],
  ['500', 'Internal Error', 'Our fault. Retry later with the same Idempotency-Key.'],
];

const businessErrors = [
  [
    'INSUFFICIENT_BALANCE',
    '422',
    'The amount exceeds what is available. details: required, available, chain.',
  ],
  ['DEAL_NOT_ACTIVE', '409', 'The deal cannot be modified, e.g. terms after escrow funding.'],
  ['INVALID_SIGNATURE', '400', 'A signature over a release or an approval does not verify.'],
  ['ESCROW_ALREADY_FUNDED', '409', 'This leg of the escrow is already funded; it cannot be funded twice.'],
];

const errorExample = `{
  "error": {
    "code": "INSUFFICIENT_BALANCE",
    "message": "The amount exceeds the available balance.",
    "details": { "required": "1000000000", "available": "250000000", "chain": "BTC" },
    "timestamp": "2026-03-02T14:05:11.000Z"
  }
}`;

export function ApiReferenceRoute() {
  const baseUrl = `${useOrigin()}/api/v1`;
  const { data: document, isPending } = useOpenApiDocument();
  const endpoints = listEndpoints(document);
  const examples = codeExamples(baseUrl);

  return (
    <ContentPage
      wide
      eyebrow="Developers"
      title="API Reference"
      intro="The Covenant REST API lets your own systems authenticate, create deals and follow their escrow. JSON in, JSON out; amounts are strings of base units."
      actions={
        <>
          <Button asChild size="lg">
            <Link to={paths.signUp}>Get API Key</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={paths.documentation}>Documentation</Link>
          </Button>
        </>
      }
    >
      <ul aria-label="Overview" className="mt-12 grid gap-4 md:grid-cols-3">
        <li>
          <Card className="h-full">
            <Link2 aria-hidden="true" className="size-6 text-primary" />
            <h2 className="mt-4 font-semibold">Base URL</h2>
            <code className="mt-2 block break-all font-mono text-sm">{baseUrl}</code>
            <p className="mt-2 text-muted text-sm">
              HTTPS only. Every POST accepts an Idempotency-Key header.
            </p>
          </Card>
        </li>
        <li>
          <Card className="h-full">
            <KeyRound aria-hidden="true" className="size-6 text-primary" />
            <h2 className="mt-4 font-semibold">Authentication</h2>
            <p className="mt-2 text-muted text-sm">
              Bearer token:{' '}
              <code className="font-mono text-foreground">Authorization: Bearer &lt;token&gt;</code>, with an
              access token from POST /auth/login or an API key.
            </p>
          </Card>
        </li>
        <li>
          <Card className="h-full">
            <Gauge aria-hidden="true" className="size-6 text-primary" />
            <h2 className="mt-4 font-semibold">Rate limits</h2>
            <ul className="mt-2 space-y-1 text-sm">
              <li>Standard: 1000 requests/hour</li>
              <li>Premium: 10000 requests/hour</li>
            </ul>
            <p className="mt-2 text-muted text-sm">
              Each answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.
            </p>
          </Card>
        </li>
      </ul>

      <Tabs defaultValue="endpoints" className="mt-16">
        <TabsList aria-label="API reference sections" className="max-w-xl">
          <TabsTrigger value="endpoints">Endpoints</TabsTrigger>
          <TabsTrigger value="examples">Code Examples</TabsTrigger>
          <TabsTrigger value="webhooks">Webhooks</TabsTrigger>
        </TabsList>

        <TabsContent value="endpoints" className="mt-8">
          <h2 className="sr-only">Endpoints</h2>
          <p className="mb-6 text-muted text-sm" role="status">
            {isPending
              ? 'Loading the server’s OpenAPI document…'
              : document && Object.keys(document.paths).length > 0
                ? `From this server’s OpenAPI document${document.info?.version ? ` (version ${document.info.version})` : ''}. `
                : 'The documented endpoints of the API. '}
            {!isPending && (
              <a href={openApiDocumentPath} className="text-primary underline underline-offset-4">
                openapi.json
              </a>
            )}
          </p>
          <EndpointList endpoints={endpoints} />
        </TabsContent>

        <TabsContent value="examples" className="mt-8">
          <h2 className="sr-only">Code Examples</h2>
          <Tabs defaultValue="javascript">
            <TabsList aria-label="Language" className="max-w-xs">
              <TabsTrigger value="javascript">JavaScript</TabsTrigger>
              <TabsTrigger value="python">Python</TabsTrigger>
            </TabsList>
            {(['javascript', 'python'] as const).map((language) => (
              <TabsContent key={language} value={language} className="mt-6 space-y-10">
                {examples.map((example, index) => (
                  <section key={example.id} aria-labelledby={`${language}-${example.id}`}>
                    <h3 id={`${language}-${example.id}`} className="font-semibold text-lg">
                      {index + 1}. {example.title}
                    </h3>
                    <p className="mt-2 mb-4 max-w-3xl text-muted text-sm">{example.text}</p>
                    <CodeBlock
                      code={example[language]}
                      label={`${example.title} in ${language === 'javascript' ? 'JavaScript' : 'Python'}`}
                    />
                  </section>
                ))}
              </TabsContent>
            ))}
          </Tabs>
        </TabsContent>

        <TabsContent value="webhooks" className="mt-8 space-y-10">
          <h2 className="sr-only">Webhooks</h2>
          <p className="max-w-3xl text-muted">
            Register an HTTPS endpoint and the events it wants. Each event is POSTed as JSON; answer with any
            2xx status within 10 seconds. Failed deliveries are retried with increasing delays, and every
            attempt is logged where you manage your webhooks.
          </p>
          {webhookEventExamples.map((example) => (
            <section key={example.event} aria-labelledby={`webhook-${example.event}`}>
              <h3 id={`webhook-${example.event}`} className="font-mono font-semibold text-lg">
                {example.event}
              </h3>
              <p className="mt-1 mb-4 text-muted text-sm">{example.when}</p>
              <CodeBlock
                label={`${example.event} payload`}
                code={JSON.stringify(
                  {
                    id: example.deliveryId,
                    type: example.event,
                    created_at: example.sentAt,
                    data: example.data,
                  },
                  null,
                  2,
                )}
              />
            </section>
          ))}
          <section aria-labelledby="webhook-signature">
            <h3 id="webhook-signature" className="font-semibold text-lg">
              Verifying the signature
            </h3>
            <p className="mt-2 mb-4 max-w-3xl text-muted text-sm">
              Every delivery carries{' '}
              <code className="font-mono text-foreground">
                Covenant-Signature: t=&lt;unix time&gt;,v1=&lt;hex&gt;
              </code>
              , where v1 is the HMAC-SHA256, keyed with your endpoint’s secret, of the timestamp, a full stop
              and the raw request body. Compute it over the bytes you received, compare in constant time, and
              refuse timestamps more than five minutes old so a captured delivery cannot be replayed.
            </p>
            <div className="grid gap-6 xl:grid-cols-2">
              <CodeBlock label="Signature verification in JavaScript" code={verifyJavascript} />
              <CodeBlock label="Signature verification in Python" code={verifyPython} />
            </div>
          </section>
        </TabsContent>
      </Tabs>

      <section aria-labelledby="errors-heading" className="mt-16">
        <h2 id="errors-heading" className="font-semibold text-2xl tracking-tight">
          Error handling
        </h2>
        <p className="mt-3 max-w-3xl text-muted">
          Every error has the same shape: a stable code to branch on, a message for people, details that
          depend on the code, and the time it happened.
        </p>
        <div className="mt-6 grid gap-8 lg:grid-cols-2">
          <CodeBlock label="Error object" code={errorExample} />
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="mb-2 text-left font-semibold text-base">HTTP status codes</caption>
              <tbody className="divide-y divide-border">
                {httpErrors.map(([status, name, meaning]) => (
                  <tr key={status}>
                    <th scope="row" className="py-2 pr-3 font-mono font-semibold">
                      {status}
                    </th>
                    <td className="py-2 pr-3">{name}</td>
                    <td className="py-2 text-muted">{meaning}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        <div className="mt-8 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="mb-2 text-left font-semibold text-base">Business error codes</caption>
            <thead className="text-muted">
              <tr>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Code
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  HTTP
                </th>
                <th scope="col" className="py-2 font-medium">
                  Meaning
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {businessErrors.map(([code, status, meaning]) => (
                <tr key={code}>
                  <th scope="row" className="py-2 pr-3 font-mono font-semibold">
                    {code}
                  </th>
                  <td className="py-2 pr-3 font-mono">{status}</td>
                  <td className="py-2 text-muted">{meaning}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section
        aria-labelledby="api-next"
        className="mt-16 rounded-2xl border border-primary/30 bg-primary/5 p-8 text-center sm:p-12"
      >
        <h2 id="api-next" className="font-semibold text-2xl tracking-tight">
          Start building
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-muted">
          Create an account to get your API key, or ask the team about an integration.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to={paths.signUp}>Create Account</Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <Link to={paths.helpCenter}>Help Center</Link>
          </Button>
        </div>
      </section>
    </ContentPage>
  );
}
