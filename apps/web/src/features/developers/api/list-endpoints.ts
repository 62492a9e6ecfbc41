import { type OpenApiDocument, parseOperation } from './get-openapi-document.js';

export const endpointGroups = ['Authentication', 'User', 'Trading', 'Escrow', 'Wallets'] as const;

export type Endpoint = {
  method: string;
  path: string;
  auth: string;
  description: string;
  group: string;
  // Documented in the specification but absent from the server's live document.
  pending: boolean;
};

type DocumentedEndpoint = Omit<Endpoint, 'pending'>;

// The public API as the specification documents it (§7): what the page shows until the server's
// own OpenAPI document lists an operation.
export const documentedEndpoints: DocumentedEndpoint[] = [
  {
    group: 'Authentication',
    method: 'POST',
    path: '/api/v1/auth/login',
    auth: 'None',
    description: 'Exchange your e-mail address and password (JSON) for an access token and a refresh token.',
  },
  {
    group: 'Authentication',
    method: 'POST',
    path: '/api/v1/auth/refresh',
    auth: 'Refresh token',
    description: 'Exchange a refresh token for new tokens. Each refresh token works once.',
  },
  {
    group: 'User',
    method: 'GET',
    path: '/api/v1/user/profile',
    auth: 'Bearer',
    description: 'Your profile: username, verification status, trading tier and KYC state.',
  },
  {
    group: 'Trading',
    method: 'POST',
    path: '/api/v1/deals',
    auth: 'Bearer',
    description:
      'Create a deal with a verified counterparty: asset_chain, asset_symbol, asset_amount, stable_chain, stable_symbol, stable_amount (amounts as base-unit strings), counterparty_id.',
  },
  {
    group: 'Trading',
    method: 'GET',
    path: '/api/v1/deals/{id}',
    auth: 'Bearer',
    description: 'One of your deals, with its status, terms and escrow legs.',
  },
  {
    group: 'Trading',
    method: 'PUT',
    path: '/api/v1/deals/{id}/terms',
    auth: 'Bearer',
    description: 'Propose new terms. Only before escrow funding; afterwards the answer is DEAL_NOT_ACTIVE.',
  },
  {
    group: 'Escrow',
    method: 'POST',
    path: '/api/v1/escrow/create',
    auth: 'Bearer',
    description: 'Create the escrow of a deal whose terms are agreed: one deposit address per leg.',
  },
  {
    group: 'Escrow',
    method: 'POST',
    path: '/api/v1/escrow/fund',
    auth: 'Bearer',
    description:
      'Report your deposit: deal_id, transaction_hash, chain, amount. It counts once confirmed on-chain.',
  },
  {
    group: 'Escrow',
    method: 'GET',
    path: '/api/v1/escrow/{id}/status',
    auth: 'Bearer',
    description: 'The escrow’s legs: deposit addresses, amounts received and confirmations.',
  },
  {
    group: 'Escrow',
    method: 'POST',
    path: '/api/v1/escrow/release',
    auth: 'Bearer',
    description: 'Approve the release of your leg, with your signature over the release.',
  },
  {
    group: 'Wallets',
    method: 'GET',
    path: '/api/v1/wallets/balance',
    auth: 'Bearer',
    description: 'What you hold in escrow per chain and token.',
  },
  {
    group: 'Wallets',
    method: 'POST',
    path: '/api/v1/wallets/connect',
    auth: 'Bearer',
    description: 'Register the public keys of your escrow wallet for each chain.',
  },
];

const httpMethods = ['get', 'post', 'put', 'patch', 'delete'];

const groupByPrefix: [string, string][] = [
  ['/api/v1/auth/', 'Authentication'],
  ['/api/v1/user', 'User'],
  ['/api/v1/deals', 'Trading'],
  ['/api/v1/cis', 'Trading'],
  ['/api/v1/escrow', 'Escrow'],
  ['/api/v1/wallets', 'Wallets'],
];

/** The document's paths may be relative to its server URL (e.g. "/deals" under "/api/v1"). */
function fullPath(document: OpenApiDocument, path: string): string {
  if (path.startsWith('/api/v1')) return path;
  const server = document.servers?.[0]?.url ?? '/api/v1';
  const base = new URL(server, 'http://base').pathname.replace(/\/$/, '');
  return `${base}${path}`;
}

function groupOf(path: string, tags: string[] | undefined): string {
  const tagged = tags?.find((tag) => (endpointGroups as readonly string[]).includes(tag));
  if (tagged) return tagged;
  return groupByPrefix.find(([prefix]) => path.startsWith(prefix))?.[1] ?? tags?.[0] ?? 'Other';
}

/**
 * The endpoints to show: every operation of the live document (its own summary, group and security),
 * plus each documented endpoint the document does not list yet, marked pending. Without a live
 * document, the documented list as it is.
 */
export function listEndpoints(document: OpenApiDocument | null | undefined): Endpoint[] {
  if (!document || Object.keys(document.paths).length === 0) {
    return documentedEndpoints.map((endpoint) => ({ ...endpoint, pending: false }));
  }

  const live: Endpoint[] = [];
  for (const [rawPath, item] of Object.entries(document.paths)) {
    const path = fullPath(document, rawPath);
    for (const [method, value] of Object.entries(item)) {
      if (!httpMethods.includes(method)) continue;
      const operation = parseOperation(value);
      if (!operation || operation.deprecated) continue;
      const documented = documentedEndpoints.find(
        (endpoint) => endpoint.path === path && endpoint.method === method.toUpperCase(),
      );
      // OpenAPI: an operation without `security` falls back to the document's; neither means public.
      const security = operation.security ?? document.security ?? [];
      const auth = documented?.auth ?? (security.length === 0 ? 'None' : 'Bearer');
      live.push({
        method: method.toUpperCase(),
        path,
        auth,
        description: operation.summary ?? operation.description ?? documented?.description ?? '',
        group: groupOf(path, operation.tags),
        pending: false,
      });
    }
  }

  const pending = documentedEndpoints
    .filter(
      (endpoint) => !live.some((entry) => entry.path === endpoint.path && entry.method === endpoint.method),
    )
    .map((endpoint) => ({ ...endpoint, pending: true }));

  const documentedOrder = (endpoint: Endpoint) => {
    const index = documentedEndpoints.findIndex(
      (candidate) => candidate.path === endpoint.path && candidate.method === endpoint.method,
    );
    return index === -1 ? documentedEndpoints.length : index;
  };
  return [...live, ...pending].sort(
    (a, b) =>
      documentedOrder(a) - documentedOrder(b) ||
      a.path.localeCompare(b.path) ||
      a.method.localeCompare(b.method),
  );
}

/** Endpoints by group: the five documented groups first, in order, then any other group the server adds. */
export function groupEndpoints(endpoints: Endpoint[]): { group: string; endpoints: Endpoint[] }[] {
  const extra = [...new Set(endpoints.map((endpoint) => endpoint.group))]
    .filter((group) => !(endpointGroups as readonly string[]).includes(group))
    .sort();
  return [...endpointGroups, ...extra]
    .map((group) => ({ group, endpoints: endpoints.filter((endpoint) => endpoint.group === group) }))
    .filter((entry) => entry.endpoints.length > 0);
}
