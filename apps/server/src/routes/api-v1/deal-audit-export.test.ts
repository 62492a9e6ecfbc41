import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findBrokenAuditEntry } from '@covenant/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTrader } from '../../testing/create-test-trader.js';
import { type DealParties, startDealParties } from '../../testing/start-deal-parties.js';

let parties: DealParties;
let dealId: string;
let scratch: string;
const repositoryRoot = fileURLToPath(new URL('../../../../../', import.meta.url));
const cliBin = join(repositoryRoot, 'packages/cli/bin/covenant.mjs');

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'covenant-audit-'));
  parties = await startDealParties();
  const created = await call('POST', '/api/v1/deals', parties.buyer.token, {
    asset_chain: 'ETH',
    asset_symbol: 'WBTC',
    asset_amount: '50000000',
    stable_chain: 'ETH',
    stable_symbol: 'USDC',
    stable_amount: '30000000000',
    counterparty_id: parties.seller.id,
  });
  expect(created.statusCode, created.body).toBe(201);
  dealId = created.json().id;
  const cancelled = await call('POST', `/api/v1/deals/${dealId}/cancel`, parties.seller.token, {
    reason: 'Changed my mind',
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
});
afterAll(async () => {
  await parties?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command as a child process, as a person would in a shell. */
async function run(command: string, args: string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, { cwd: repositoryRoot });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function exportFile(): Promise<{
  format: string;
  deal_id: string;
  entries: Array<Record<string, unknown>>;
}> {
  const exported = await call('GET', `/api/v1/deals/${dealId}/audit/export`, parties.buyer.token);
  expect(exported.statusCode, exported.body).toBe(200);
  return exported.json();
}

async function save(name: string, content: unknown): Promise<string> {
  const path = join(scratch, name);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

function call(method: 'GET' | 'POST', url: string, token: string, payload?: unknown) {
  return parties.app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('GET /api/v1/deals/{id}/audit/export', () => {
  it('gives either party the trail as a file whose chain verifies', async () => {
    for (const party of [parties.buyer, parties.seller]) {
      const exported = await call('GET', `/api/v1/deals/${dealId}/audit/export`, party.token);
      expect(exported.statusCode, exported.body).toBe(200);
      expect(exported.headers['content-disposition']).toBe(
        `attachment; filename="deal-${dealId}-audit.json"`,
      );
      const file = exported.json();
      const trail = (await call('GET', `/api/v1/deals/${dealId}/audit`, party.token)).json();
      expect(file).toEqual({
        format: 'covenant-deal-audit/1',
        deal_id: dealId,
        exported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        entries: trail.entries,
      });
      expect(file.entries.map((entry: { action: string }) => entry.action)).toEqual(['created', 'cancelled']);
      expect(
        findBrokenAuditEntry(file.entries.map((entry: object) => ({ ...entry, deal_id: dealId }))),
      ).toBeNull();
    }
  });

  it('is 404 for anybody who is not a party, staff included, and 401 without a token', async () => {
    const staff = await createTestTrader(parties.app, { roles: ['admin', 'mediator', 'compliance'] });
    for (const token of [parties.outsider.token, staff.token]) {
      const refused = await call('GET', `/api/v1/deals/${dealId}/audit/export`, token);
      expect(refused.statusCode).toBe(404);
      expect(refused.json().error.code).toBe('NOT_FOUND');
      expect(refused.body).not.toContain('cancelled');
    }
    expect(
      (await parties.app.inject({ method: 'GET', url: `/api/v1/deals/${dealId}/audit/export` })).statusCode,
    ).toBe(401);
  });
});

describe('npx covenant verify-audit', () => {
  it('verifies a real export, printing each entry, with exit code 0', async () => {
    const path = await save(`deal-${dealId}-audit.json`, await exportFile());
    const verified = await run('npx', ['covenant', 'verify-audit', path]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain(
      `deal ${dealId}\n1 created ok\n2 cancelled ok\nverified: 2 entries, chain intact\n`,
    );
  });

  it('fails at the entry whose payload was changed, with exit code 1', async () => {
    const file = await exportFile();
    file.entries[1] = {
      ...file.entries[1],
      payload: { ...(file.entries[1]!.payload as object), reason: 'Edited' },
    };
    const tampered = await run('node', [cliBin, 'verify-audit', await save('tampered.json', file)]);
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain('1 created ok\n2 cancelled BROKEN\n');
    expect(tampered.stdout).not.toContain('verified:');
    expect(tampered.stderr).toContain('broken at seq 2 (cancelled): its hash does not match its content');
  });

  it('fails where an entry was removed', async () => {
    const file = await exportFile();
    const removed = await run('node', [
      cliBin,
      'verify-audit',
      await save('removed.json', { ...file, entries: file.entries.slice(1) }),
    ]);
    expect(removed.code).toBe(1);
    expect(removed.stdout).toContain(`deal ${dealId}\n2 cancelled BROKEN\n`);
    expect(removed.stderr).toContain(
      'broken at seq 2 (cancelled): its seq does not follow the previous entry',
    );
  });

  it('refuses a file that is not an export, and explains itself with --help', async () => {
    const notJson = await run('node', [cliBin, 'verify-audit', await save('not.json', 'hello')]);
    expect([notJson.code, notJson.stderr]).toEqual([1, expect.stringContaining('is not JSON')]);
    const wrong = await run('node', [cliBin, 'verify-audit', await save('wrong.json', { format: 'other' })]);
    expect([wrong.code, wrong.stderr]).toEqual([
      1,
      expect.stringContaining('is not a Covenant deal audit export'),
    ]);
    const help = await run('node', [cliBin, '--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('verify-audit <file>')]);
  });
});
