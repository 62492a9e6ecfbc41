import swagger from '@fastify/swagger';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

const tags = [
  { name: 'Authentication', description: 'Sign in and refresh tokens' },
  { name: 'User', description: 'Your profile, partners and KYC' },
  { name: 'Trading', description: 'Deals between two verified traders' },
  { name: 'Escrow', description: 'Escrow per deal (coming with on-chain escrow)' },
  { name: 'Wallets', description: 'Wallets and keys for escrow (coming with on-chain escrow)' },
  { name: 'Webhooks', description: 'Signed event deliveries to your endpoints' },
  { name: 'API keys', description: 'Keys for server-to-server access' },
];

/**
 * Collects every /api/v1 route registered after it into an OpenAPI 3.1 document built from the
 * routes' zod schemas. Must be registered before the routes; paths are relative to the server URL.
 */
export async function collectOpenApi(app: FastifyInstance, prefix: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Covenant API',
        version: '1.0.0',
        description:
          'OTC trades between verified parties with escrow. Errors are `{"error": {code, message, details, timestamp}}`; ' +
          'every response carries X-RateLimit-Limit/Remaining/Reset; every POST honours Idempotency-Key.',
      },
      servers: [{ url: `${app.config.publicUrl}${prefix}` }],
      tags,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'A session access token (from /auth/login) or an API key (cov_live_…)',
          },
        },
      },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      // `/partners/` (a plugin's root route) is documented as `/partners`, the URL clients use.
      const path = transformed.url.slice(prefix.length).replace(/(.)\/$/, '$1');
      return { ...transformed, url: path || '/' };
    },
    transformObject: jsonSchemaTransformObject,
  });
}

interface Operation {
  method: string;
  path: string;
  summary: string;
  tag: string;
  authenticated: boolean;
}

/** `GET /openapi.json` and `GET /docs`, a plain page listing every operation by tag. */
export const apiDescriptionRoutes: FastifyPluginAsync<{ document: () => unknown }> = async (app, options) => {
  app.get('/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () =>
    options.document(),
  );
  app.get('/docs', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    const document = options.document() as OpenApiDocument;
    return reply.type('text/html; charset=utf-8').send(renderDocs(document));
  });
};

interface OpenApiDocument {
  info: { title: string; description?: string };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, { summary?: string; tags?: string[]; security?: unknown[] }>>;
}

function renderDocs(document: OpenApiDocument): string {
  const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      summary: operation.summary ?? '',
      tag: operation.tags?.[0] ?? 'Other',
      authenticated: (operation.security?.length ?? 0) > 0,
    })),
  );
  const groups = [...tags.map((tag) => tag.name), 'Other']
    .map((tag) => ({ tag, operations: operations.filter((operation) => operation.tag === tag) }))
    .filter((group) => group.operations.length > 0);
  const server = document.servers?.[0]?.url ?? '';
  const sections = groups
    .map(
      (group) =>
        `<section><h2>${escapeHtml(group.tag)}</h2><table><thead><tr><th>Method</th><th>Path</th><th>Auth</th><th>Description</th></tr></thead><tbody>${group.operations
          .map(
            (operation) =>
              `<tr><td><code>${operation.method}</code></td><td><code>${escapeHtml(operation.path)}</code></td><td>${operation.authenticated ? 'Bearer' : 'none'}</td><td>${escapeHtml(operation.summary)}</td></tr>`,
          )
          .join('')}</tbody></table></section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)}</title></head>
<body><main><h1>${escapeHtml(document.info.title)}</h1>
<p>${escapeHtml(document.info.description ?? '')}</p>
<p>Base URL: <code>${escapeHtml(server)}</code> · Machine-readable: <a href="openapi.json">openapi.json</a></p>
${sections}
</main></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
