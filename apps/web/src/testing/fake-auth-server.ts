// A small in-memory stand-in for the server's GoTrue-compatible API, answered through `fetch`, so
// component tests drive the real @supabase/auth-js client end to end without a network. Its answers
// follow GoTrue's shapes: sessions, users, and errors with `code`, `msg` and the API-version header.

type FakeUser = {
  id: string;
  email: string;
  password: string;
  confirmed: boolean;
  metadata: Record<string, unknown>;
  // Staff roles, as the server puts them into app_metadata.
  roles?: string[];
  factors?: FakeFactor[];
  // A linked Google identity (its address), listed after the e-mail identity.
  google?: { id: string; email: string };
};

// A TOTP factor whose authenticator always shows `code`.
type FakeFactor = { id: string; status: 'verified' | 'unverified'; friendly_name?: string; code: string };

/** The code the authenticator of a factor enrolled through the fake shows. */
export const fakeEnrolledTotpCode = '246810';

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
  const tokenAal = new Map<string, 'aal1' | 'aal2'>();
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
    app_metadata: { provider: 'email', providers: ['email'], ...(user.roles ? { roles: user.roles } : {}) },
    user_metadata: user.metadata,
    ...(user.factors?.length
      ? {
          factors: user.factors.map((factor) => ({
            id: factor.id,
            friendly_name: factor.friendly_name,
            factor_type: 'totp',
            status: factor.status,
            created_at: '2025-01-01T00:00:00Z',
            updated_at: '2025-01-01T00:00:00Z',
          })),
        }
      : {}),
    identities: [
      {
        identity_id: user.id,
        id: user.id,
        user_id: user.id,
        identity_data: { email: user.email, sub: user.id },
        provider: 'email',
      },
      ...(user.google
        ? [
            {
              identity_id: user.google.id,
              id: `google-${user.google.id}`,
              user_id: user.id,
              identity_data: { email: user.google.email },
              provider: 'google',
            },
          ]
        : []),
    ],
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
  });

  const sessionJson = (user: FakeUser, expiresIn = 3600, aal: 'aal1' | 'aal2' = 'aal1') => {
    issued += 1;
    const exp = Math.floor(Date.now() / 1000) + expiresIn;
    const accessToken = `${base64url({ alg: 'ES256', typ: 'JWT' })}.${base64url({ sub: user.id, email: user.email, exp, aal, n: issued })}.c2ln`;
    const refreshToken = `refresh-${issued}`;
    accessTokens.set(accessToken, user.email);
    tokenAal.set(accessToken, aal);
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

  // Second factors, as GoTrue answers them: enrol, challenge, verify (the session becomes aal2), remove.
  const answerFactors = (request: Request, path: string, body: Record<string, unknown>): Reply => {
    const token = request.headers.get('Authorization')?.replace(/^Bearer /, '') ?? '';
    const user = bearerUser(request);
    if (!user) return failure(401, 'bad_jwt', 'invalid JWT');
    user.factors ??= [];
    const factors = user.factors;
    const [, factorId, action] = /^\/factors(?:\/([^/]+))?(?:\/(challenge|verify))?$/.exec(path) ?? [];
    const factor = factors.find((candidate) => candidate.id === factorId);
    if (request.method === 'POST' && !factorId) {
      const id = crypto.randomUUID();
      factors.push({
        id,
        status: 'unverified',
        friendly_name: body.friendly_name as string | undefined,
        code: fakeEnrolledTotpCode,
      });
      return {
        status: 200,
        body: {
          id,
          type: 'totp',
          friendly_name: body.friendly_name,
          totp: {
            qr_code: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
            secret: 'FAKESECRETBASE32',
            uri: 'otpauth://totp/x',
          },
        },
      };
    }
    if (!factor) return failure(404, 'mfa_factor_not_found', 'Factor not found');
    if (request.method === 'POST' && action === 'challenge') {
      return {
        status: 200,
        body: { id: `challenge-${factor.id}`, type: 'totp', expires_at: Math.floor(Date.now() / 1000) + 300 },
      };
    }
    if (request.method === 'POST' && action === 'verify') {
      if (body.code !== factor.code)
        return failure(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
      factor.status = 'verified';
      return { status: 200, body: sessionJson(user, 3600, 'aal2') };
    }
    if (request.method === 'DELETE' && !action) {
      if (factor.status === 'verified' && tokenAal.get(token) !== 'aal2') {
        return failure(403, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
      }
      user.factors = factors.filter((candidate) => candidate !== factor);
      return { status: 200, body: { id: factor.id } };
    }
    return failure(404, 'not_found', `No route ${request.method} ${path}`);
  };

  const answer = (
    request: Request,
    path: string,
    query: URLSearchParams,
    body: Record<string, unknown>,
  ): Reply => {
    const route = `${request.method} ${path}`;
    if (path.startsWith('/factors')) return answerFactors(request, path, body);
    if (request.method === 'DELETE' && path.startsWith('/user/identities/')) {
      // GoTrue's unlink: the caller's own identity only.
      const user = bearerUser(request);
      if (!user) return failure(401, 'bad_jwt', 'invalid JWT');
      if (user.google?.id !== path.slice('/user/identities/'.length)) {
        return failure(404, 'identity_not_found', 'Identity doesn’t exist');
      }
      user.google = undefined;
      return { status: 200, body: {} };
    }
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
      case 'POST /reauthenticate': {
        // The password again (ADR 013); a renewed session.
        const user = bearerUser(request);
        if (!user) return failure(401, 'bad_jwt', 'invalid JWT');
        if (body.password !== user.password)
          return failure(400, 'invalid_credentials', 'Invalid login credentials');
        return { status: 200, body: sessionJson(user) };
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
    // `roles` makes a staff member; `totpCode` gives them a verified authenticator that shows that code;
    // `google` links a Google identity with that address.
    addUser(
      email: string,
      password: string,
      {
        confirmed = true,
        roles,
        totpCode,
        google,
      }: { confirmed?: boolean; roles?: string[]; totpCode?: string; google?: string } = {},
    ) {
      const factors: FakeFactor[] = totpCode
        ? [{ id: crypto.randomUUID(), status: 'verified', friendly_name: 'Phone', code: totpCode }]
        : [];
      const user: FakeUser = {
        id: crypto.randomUUID(),
        email,
        password,
        confirmed,
        metadata: {},
        roles,
        factors,
        ...(google ? { google: { id: crypto.randomUUID(), email: google } } : {}),
      };
      users.set(email, user);
      return user;
    },
    // A session the server would accept, as a browser would have stored it after an earlier sign-in.
    issueSession: (email: string, expiresIn?: number, aal?: 'aal1' | 'aal2') => {
      const user = users.get(email);
      if (!user) throw new Error(`No user ${email}`);
      return sessionJson(user, expiresIn, aal);
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
