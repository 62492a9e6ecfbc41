import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'covenant-main-'));
let postgres: Database | undefined;

/** Starts `main.ts` as `npm start` does (or with other settings) and resolves once it prints its URL. */
async function startServer(
  settings: Record<string, string> = { NODE_ENV: 'test', LOG_LEVEL: 'info' },
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...settings,
      ...(postgres ? { DATABASE_URL: postgres.connectionString } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 45_000);
    child.stdout?.on('data', () => {
      const match = output.match(/Covenant is running at (http:\/\/localhost:\d+)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
  return { child, url, output: () => output };
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; afterMs: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve({ code, afterMs: Date.now() - started }));
  });
}

beforeAll(async () => {
  if (process.env.TEST_DB === 'postgres') postgres = await createTestDatabase();
});
afterAll(async () => {
  await postgres?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// Each test starts a real process (a new PGlite directory takes seconds); a busy machine needs room.
describe('the server process', { timeout: 90_000 }, () => {
  it('starts, serves, and on SIGTERM stops cleanly within seconds', async () => {
    const { child, url, output } = await startServer();
    const health = await fetch(`${url}/readyz`);
    expect(health.status).toBe(200);
    // Pretty and quiet: human lines before the banner, and no line per request to push it away.
    const [beforeBanner = '', afterBanner = ''] = output().split('Covenant is running at');
    expect(beforeBanner).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: listening \{"engine":"(pglite|postgres)"/m);
    expect(beforeBanner).not.toContain('{"level"');
    expect(afterBanner).not.toMatch(/^\[\d\d:\d\d:\d\d\] /m);
    // Demo accounts are seeded into a fresh embedded database, never into one given by DATABASE_URL.
    const login = await fetch(`${url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'buyer@demo.covenant.test', password: 'covenant-demo' }),
    });
    if (postgres) {
      expect(login.status).toBe(401);
      expect(output()).not.toContain('Demo accounts');
    } else {
      expect(login.status).toBe(200);
      expect(await login.json()).toMatchObject({ token_type: 'bearer', access_token: expect.any(String) });
      expect(output()).toContain('Demo accounts (password: covenant-demo)');
      expect(output()).toMatch(/buyer@demo\.covenant\.test\s+trader: verified, KYC complete, Enhanced tier/);
    }
    const exited = exitOf(child);
    child.kill('SIGTERM');
    const { code, afterMs } = await exited;
    expect(code).toBe(0);
    expect(afterMs).toBeLessThan(5000);
    expect(output()).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: stopped$/m);
  });

  it('restarts on its data, lists the demo accounts it holds, and stops once on a doubled Ctrl-C', async () => {
    const { child, url, output } = await startServer();
    if (postgres) expect(output()).not.toContain('Demo accounts');
    else {
      expect(output()).toMatch(/admin@demo\.covenant\.test\s+admin and compliance/);
      expect(output()).toMatch(/concierge@demo\.covenant\.test\s+concierge: quotes and books travel/);
      // The staff factors' secrets were sealed at the first start and still open as the seed's.
      expect(output()).toContain('TOTP secret for staff demo accounts: COVENANTDEMOTOTPSECRETFORSTAFFAA');
    }
    // A browser-like keep-alive connection that stays open must not hold the shutdown.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const exited = exitOf(child);
    child.kill('SIGINT');
    child.kill('SIGINT');
    const { code, afterMs } = await exited;
    expect(code).toBe(0);
    expect(afterMs).toBeLessThan(5000);
  });

  it('in production writes JSON lines at info, one per request', async () => {
    const { child, url, output } = await startServer({ NODE_ENV: 'production' });
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/api/v1/deals`)).status).toBe(401);
    const exited = exitOf(child);
    child.kill('SIGTERM');
    expect((await exited).code).toBe(0);
    const lines = output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; req?: { url: string } });
    expect(output()).toContain('Covenant is running at');
    expect(output()).not.toContain('Demo accounts');
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['listening', 'stopped']));
    // The embedded database the earlier tests seeded went to production: the operator is told.
    const warning = 'demo accounts with published passwords exist in this production database; delete them';
    if (postgres) expect(lines.map((line) => line.msg)).not.toContain(warning);
    else expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: warning }));
    expect(lines.every((line) => line.level >= 30)).toBe(true);
    expect(lines.filter((line) => line.msg === 'incoming request')).toEqual([]);
    const requests = lines.filter((line) => line.msg === 'request completed');
    expect(requests).toEqual([
      expect.objectContaining({
        req: expect.objectContaining({ method: 'GET', url: '/healthz' }),
        res: { statusCode: 200 },
      }),
      expect.objectContaining({
        req: expect.objectContaining({ method: 'GET', url: '/api/v1/deals' }),
        res: { statusCode: 401 },
        reqId: expect.any(String),
        responseTime: expect.any(Number),
      }),
    ]);
  });

  it('in production never seeds the demo accounts, even into a fresh embedded database', async () => {
    const freshDataDir = mkdtempSync(join(tmpdir(), 'covenant-main-production-'));
    try {
      const { child, url, output } = await startServer({ NODE_ENV: 'production', DATA_DIR: freshDataDir });
      const login = await fetch(`${url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'buyer@demo.covenant.test', password: 'covenant-demo' }),
      });
      expect(login.status).toBe(401);
      const exited = exitOf(child);
      child.kill('SIGTERM');
      expect((await exited).code).toBe(0);
      expect(output()).not.toContain('Demo accounts');
      expect(output()).not.toContain('demo accounts with published passwords');
    } finally {
      rmSync(freshDataDir, { recursive: true, force: true });
    }
  });

  it('refuses to start in production when asked to seed the demo accounts', async () => {
    await expect(startServer({ NODE_ENV: 'production', SEED_DEMO_DATA: 'true' })).rejects.toThrow(
      /exited with 1[\s\S]*SEED_DEMO_DATA: demo accounts \(published passwords\) are never seeded/,
    );
  });
});
