import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from './api-client.js';

// Records the one request made and answers it with `response`.
function answering(response: Response) {
  const seen: Request[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(input, init));
    return response;
  });
  return seen;
}

describe('createApiClient', () => {
  it('calls /api/v1 on the same origin with the Bearer token, query, JSON body and idempotency key', async () => {
    const seen = answering(Response.json({ id: 'deal-1' }, { status: 201 }));
    const api = createApiClient('token-1');

    const body = await api.post('/deals', { body: { asset_amount: '1' }, idempotencyKey: 'key-1' });

    expect(body).toEqual({ id: 'deal-1' });
    const [request] = seen;
    expect(request?.url).toBe(`${window.location.origin}/api/v1/deals`);
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('Authorization')).toBe('Bearer token-1');
    expect(request?.headers.get('Idempotency-Key')).toBe('key-1');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(await request?.json()).toEqual({ asset_amount: '1' });
  });

  it('leaves out empty query values and sends no Authorization without a session', async () => {
    const seen = answering(Response.json({ data: [] }));
    await createApiClient(undefined).get('/partners', {
      query: { search: '', limit: 50, cursor: undefined },
    });
    expect(seen[0]?.url).toBe(`${window.location.origin}/api/v1/partners?limit=50`);
    expect(seen[0]?.headers.has('Authorization')).toBe(false);
  });

  it('sends a PATCH with its JSON body', async () => {
    const seen = answering(Response.json({ matching_opt_out: true }));
    const body = await createApiClient('t').patch('/user/profile', { body: { matching_opt_out: true } });
    expect(body).toEqual({ matching_opt_out: true });
    expect(seen[0]?.method).toBe('PATCH');
    expect(seen[0]?.url).toBe(`${window.location.origin}/api/v1/user/profile`);
    expect(await seen[0]?.json()).toEqual({ matching_opt_out: true });
  });

  it('answers undefined for 204', async () => {
    answering(new Response(null, { status: 204 }));
    await expect(createApiClient('t').delete('/api-keys/k')).resolves.toBeUndefined();
  });

  it('throws the API error object as an ApiError', async () => {
    answering(
      Response.json(
        {
          error: {
            code: 'TIER_LIMIT_EXCEEDED',
            message: 'Too much',
            details: { tier: 'basic', limit_usd: '10000' },
            timestamp: '2026-01-01T00:00:00.000Z',
          },
        },
        { status: 422 },
      ),
    );
    const error = await createApiClient('t')
      .get('/deals')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'TIER_LIMIT_EXCEEDED',
      message: 'Too much',
      details: { tier: 'basic', limit_usd: '10000' },
    });
  });

  it('turns a body that is not the API error object into an INTERNAL_ERROR with the status', async () => {
    answering(new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(createApiClient('t').get('/deals')).rejects.toMatchObject({
      status: 502,
      code: 'INTERNAL_ERROR',
      message: 'Bad Gateway',
      details: null,
    });
  });

  it('retries an action refused as REAUTHENTICATION_NEEDED once the user confirmed it, with the renewed token', async () => {
    const seen: Request[] = [];
    const answers = [
      Response.json(
        { error: { code: 'REAUTHENTICATION_NEEDED', message: 'Confirm', details: null, timestamp: 't' } },
        { status: 403 },
      ),
      Response.json({ ok: true }),
    ];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Request(input, init));
      return answers.shift()!;
    });
    const requestReauthentication = vi.fn(async () => 'renewed-token');
    const api = createApiClient('stale-token', requestReauthentication);

    await expect(api.put('/wallets/escrow-key', { body: { a: 1 } })).resolves.toEqual({ ok: true });
    expect(requestReauthentication).toHaveBeenCalledOnce();
    expect(seen.map((request) => request.headers.get('Authorization'))).toEqual([
      'Bearer stale-token',
      'Bearer renewed-token',
    ]);
    expect(await seen[1]?.json()).toEqual({ a: 1 });
  });

  it('keeps the refusal when the user cancels the reauthentication', async () => {
    answering(
      Response.json(
        { error: { code: 'REAUTHENTICATION_NEEDED', message: 'Confirm', details: null, timestamp: 't' } },
        { status: 403 },
      ),
    );
    const api = createApiClient('stale-token', async () => null);
    await expect(api.post('/api-keys', { body: {} })).rejects.toMatchObject({
      code: 'REAUTHENTICATION_NEEDED',
    });
  });
});
