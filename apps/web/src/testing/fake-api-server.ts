import type { FakeAuthServer } from './fake-auth-server.js';

// A stand-in for the server's /api/v1, answered through `fetch` beside the fake auth server: each test
// says what a route answers, and reads back what the app sent.

type ApiRequest = { method: string; path: string; query: URLSearchParams; headers: Headers; body: unknown };
type ApiReply = { status: number; body?: unknown };
type Handler = (request: ApiRequest) => ApiReply | Promise<ApiReply>;

export function apiError(status: number, code: string, message: string, details: unknown = null): ApiReply {
  return { status, body: { error: { code, message, details, timestamp: '2026-01-01T00:00:00.000Z' } } };
}

export function createFakeApiServer(auth: FakeAuthServer) {
  const handlers = new Map<string, Handler>();
  const requests: ApiRequest[] = [];

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/api/v1/')) return auth.fetch(input, init);
    const text = await request.text();
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const recorded = {
      method: request.method,
      path,
      query: url.searchParams,
      headers: request.headers,
      // JSON as a value; a multipart upload as the raw text of its parts.
      body: !text
        ? undefined
        : request.headers.get('content-type')?.startsWith('multipart/')
          ? text
          : JSON.parse(text),
    };
    requests.push(recorded);
    const handler = handlers.get(`${request.method} ${path}`);
    const { status, body } = handler
      ? await handler(recorded)
      : apiError(404, 'NOT_FOUND', `No route ${request.method} ${path}`);
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  };

  return {
    // The fake auth server with /api/v1 added, ready for renderApp.
    server: { ...auth, fetch } satisfies FakeAuthServer,
    requests,
    requestsTo: (route: string) => requests.filter((r) => `${r.method} ${r.path}` === route),
    // What `METHOD /path` (without /api/v1) answers from now on.
    on(route: string, handler: Handler | ApiReply) {
      handlers.set(route, typeof handler === 'function' ? handler : () => handler);
    },
  };
}
