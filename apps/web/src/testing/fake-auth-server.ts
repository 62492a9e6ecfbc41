// A small in-memory stand-in for the server's GoTrue-compatible API, answered through `fetch`, so
// component tests drive the real @supabase/auth-js client end to end without a network. Its answers
// follow GoTrue's shapes: sessions, users, and errors with `code`, `msg` and the API-version header.

type FakeUser = {
  id: string;
  email: string;
  password: string;
  confirmed: boolean;
  metadata: Record<string, unknown>;
};

export type RecordedRequest = { method: string; path: string; query: URLSearchParams; body: unknown };

type Reply = { status: number; body?: unknown };

const jsonHeaders = { 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01' };

function reply({ status, body }: Reply): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: jsonHeaders });
}

function failure(status: number, code: string, msg: string, extra: Record<string, unknown> = {}): Reply {
  return { status, body: { code, error_code: code, msg, ...extra } };
}

function base64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

export function createFakeAuthServer({ google = false }: { google?: boolean } = {}) {
  const users = new Map<string, FakeUser>();
  const refreshTokens = new Map<string, string>();
  const accessTokens = new Map<string, string>();
  const requests: RecordedRequest[] = [];
  const queued = new Map<string, Reply>();
  let paused: Promise<void> | null = null;
  let issued = 0;

  const userJson = (user: FakeUser) => ({
    id: user.id,
    aud: 'authenticated',
    role: 'authenticated',
    email: user.email,
    email_confirmed_at: user.confirmed ? '2025-01-01T00:00:00Z' : null,
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: user.metadata,
    identities: [],
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
  });

  const sessionJson = (user: FakeUser, expiresIn = 3600) => {
    issued += 1;
    const exp = Math.floor(Date.now() / 1000) + expiresIn;
    const accessToken = `${base64url({ alg: 'ES256', typ: 'JWT' })}.${base64url({ sub: user.id, email: user.email, exp, aal: 'aal1', n: issued })}.c2ln`;
    const refreshToken = `refresh-${issued}`;
    accessTokens.set(accessToken, user.email);
    refreshTokens.set(refreshToken, user.email);
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: expiresIn,
      expires_at: exp,
      refresh_token: refreshToken,
      user: userJson(user),
    };
  };

  const bearerUser = (request: Request) => {
    const token = request.headers.get('Authorization')?.replace(/^Bearer /, '') ?? '';
    const email = accessTokens.get(token);
    return email ? users.get(email) : undefined;
  };

  const answer = (
    request: Request,
    path: string,
    query: URLSearchParams,
    body: Record<string, unknown>,
  ): Reply => {
    const route = `${request.method} ${path}`;
    switch (route) {
      case 'GET /settings':
        return { status: 200, body: { external: { email: true, google }, disable_signup: false } };
      case 'POST /signup': {
        const email = String(body.email ?? '').toLowerCase();
        const password = String(body.password ?? '');
        if (!email.includes('@')) {
          return failure(400, 'email_address_invalid', 'Unable to validate email address: invalid format');
        }
        if (password.length < 6) {
          return failure(422, 'weak_password', 'Password should be at least 6 characters.', {
            weak_password: { reasons: ['length'] },
          });
        }
        if (users.has(email)) return failure(422, 'user_already_exists', 'User already registered');
        const user = {
          id: crypto.randomUUID(),
          email,
          password,
          confirmed: false,
          metadata: (body.data as Record<string, unknown>) ?? {},
        };
        users.set(email, user);
        return { status: 200, body: userJson(user) };
      }
      case 'POST /token': {
        if (query.get('grant_type') === 'refresh_token') {
          const email = refreshTokens.get(String(body.refresh_token));
          const user = email ? users.get(email) : undefined;
          if (!user) {
            return failure(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
          }
          refreshTokens.delete(String(body.refresh_token));
          return { status: 200, body: sessionJson(user) };
        }
        const user = users.get(String(body.email ?? '').toLowerCase());
        if (!user || user.password !== body.password) {
          return failure(400, 'invalid_credentials', 'Invalid login credentials');
        }
        if (!user.confirmed) return failure(400, 'email_not_confirmed', 'Email not confirmed');
        return { status: 200, body: sessionJson(user) };
      }
      case 'GET /user': {
        const user = bearerUser(request);
        return user ? { status: 200, body: userJson(user) } : failure(401, 'bad_jwt', 'invalid JWT');
      }
      case 'PUT /user': {
        const user = bearerUser(request);
        if (!user) return failure(401, 'bad_jwt', 'invalid JWT');
        if (typeof body.password === 'string') user.password = body.password;
        return { status: 200, body: userJson(user) };
      }
      case 'POST /logout':
        return { status: 204 };
      case 'POST /recover':
        return { status: 200, body: {} };
      default:
        return failure(404, 'not_found', `No route ${route}`);
    }
  };

  const fakeFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/auth\/v1/, '');
    const text = await request.text();
    const body = text ? JSON.parse(text) : {};
    requests.push({ method: request.method, path, query: url.searchParams, body });
    if (paused) await paused;
    const route = `${request.method} ${path}`;
    const queuedReply = queued.get(route);
    if (queuedReply) {
      queued.delete(route);
      return reply(queuedReply);
    }
    return reply(answer(request, path, url.searchParams, body));
  };

  return {
    fetch: fakeFetch,
    requests,
    // Requests to these paths made so far, e.g. requestsTo('POST /signup').
    requestsTo: (route: string) => requests.filter((r) => `${r.method} ${r.path}` === route),
    addUser(email: string, password: string, { confirmed = true } = {}) {
      const user = { id: crypto.randomUUID(), email, password, confirmed, metadata: {} };
      users.set(email, user);
      return user;
    },
    // A session the server would accept, as a browser would have stored it after an earlier sign-in.
    issueSession: (email: string, expiresIn?: number) => {
      const user = users.get(email);
      if (!user) throw new Error(`No user ${email}`);
      return sessionJson(user, expiresIn);
    },
    // The next request to `route` gets this reply instead of the usual one.
    replyOnce(route: string, status: number, body?: unknown) {
      queued.set(route, { status, body });
    },
    // Holds every answer until the returned function is called, to observe the UI while a request runs.
    pause(): () => void {
      let release = () => {};
      paused = new Promise((resolve) => {
        release = () => {
          paused = null;
          resolve();
        };
      });
      return release;
    },
  };
}

export type FakeAuthServer = ReturnType<typeof createFakeAuthServer>;
