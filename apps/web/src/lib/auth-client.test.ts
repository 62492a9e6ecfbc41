import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createFakeAuthServer } from '@/testing/fake-auth-server.js';
import { authStorageKey, createAuthClient } from './auth-client.js';

function startClient(server: ReturnType<typeof createFakeAuthServer>) {
  vi.stubGlobal('fetch', server.fetch);
  const client = createAuthClient(window.location.origin);
  onTestFinished(() => client.stopAutoRefresh());
  return client;
}

function storedRefreshToken(): string | undefined {
  return JSON.parse(window.localStorage.getItem(authStorageKey) ?? '{}').refresh_token;
}

afterEach(() => {
  vi.useRealTimers();
});

// The product's session rules (spec §4, §9) as the configured client applies them.
describe('createAuthClient', () => {
  it('restores the session kept in localStorage', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    const stored = server.issueSession('ada@example.com');
    window.localStorage.setItem(authStorageKey, JSON.stringify(stored));

    const client = startClient(server);

    const { data } = await client.getSession();
    expect(data.session?.access_token).toBe(stored.access_token);
    expect(server.requestsTo('POST /token')).toHaveLength(0);
  });

  it('keeps a new session in localStorage', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    const client = startClient(server);

    const { data } = await client.signInWithPassword({ email: 'ada@example.com', password: 'correct horse' });

    expect(storedRefreshToken()).toBe(data.session?.refresh_token);
  });

  it('checks every 30 s and refreshes once 90 s or less remain', async () => {
    vi.useFakeTimers();
    // On a whole second, so the token's expiry (whole seconds) lies exactly 150 s ahead.
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    const stored = server.issueSession('ada@example.com', 150);
    window.localStorage.setItem(authStorageKey, JSON.stringify(stored));
    const client = startClient(server);
    await client.initialize();

    // 150 s, then 120 s left: nothing to do yet.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(server.requestsTo('POST /token')).toHaveLength(0);

    // 90 s left at the next check: refreshed, and the new session replaces the old one in storage.
    await vi.advanceTimersByTimeAsync(30_000);
    const refreshes = server.requestsTo('POST /token');
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]?.body).toMatchObject({ refresh_token: stored.refresh_token });
    expect(storedRefreshToken()).not.toBe(stored.refresh_token);
  });

  it('removes a stored session that has expired and whose refresh the server refuses', async () => {
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    const stored = server.issueSession('ada@example.com', -60);
    window.localStorage.setItem(authStorageKey, JSON.stringify({ ...stored, refresh_token: 'revoked' }));
    const client = startClient(server);
    const events: string[] = [];
    client.onAuthStateChange((event) => {
      events.push(event);
    });

    await client.initialize();
    const { data } = await client.getSession();

    expect(data.session).toBeNull();
    expect(window.localStorage.getItem(authStorageKey)).toBeNull();
    expect(events).toContain('SIGNED_OUT');
  });

  // The client keeps a session whose early refresh was refused while its access token still works,
  // and removes it once that token has expired and the refresh is still refused.
  it('removes a session whose refresh is refused once its access token has expired', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const server = createFakeAuthServer();
    server.addUser('ada@example.com', 'correct horse');
    const stored = server.issueSession('ada@example.com', 60);
    window.localStorage.setItem(authStorageKey, JSON.stringify({ ...stored, refresh_token: 'revoked' }));
    const client = startClient(server);
    const events: string[] = [];
    client.onAuthStateChange((event) => {
      events.push(event);
    });
    await client.initialize();
    expect(server.requestsTo('POST /token').length).toBeGreaterThan(0);
    expect(window.localStorage.getItem(authStorageKey)).not.toBeNull();

    await vi.advanceTimersByTimeAsync(120_000);

    expect(window.localStorage.getItem(authStorageKey)).toBeNull();
    expect(events).toContain('SIGNED_OUT');
  });
});
