import { randomUUID } from 'node:crypto';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { createLogDestination } from './create-log-destination.js';
import { createLogger } from './create-logger.js';
import { redactLogValue } from './redact-log-value.js';

/** A logger at trace writing JSON lines into an array, as the process's logger writes them to stdout. */
function collectingLogger() {
  const lines: string[] = [];
  const logger = createLogger('trace', { write: (line: string) => lines.push(line) });
  return { logger, written: () => lines.join(''), entries: () => lines.map((line) => JSON.parse(line)) };
}

const jwt =
  'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiIxMjMiLCJhYWwiOiJhYWwxIn0.c2lnbmF0dXJlLW9mLXRoZS1qd3Q';
const apiKey = 'cov_live_Q2hhbmdlIG1lIHRvIGEgcmVhbCBrZXkgcGxlYXNlIG5vdw';
const webhookSecret = 'whsec_c2lnbmluZy1zZWNyZXQtb2YtYS13ZWJob29rLWVuZHBvaW50';
const totpSecret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const signature = `0x${'ab'.repeat(65)}`;

describe('the logger', () => {
  it('redacts every field of the redaction list, at any depth and in any spelling', () => {
    const { logger, written, entries } = collectingLogger();
    logger.info(
      {
        headers: {
          authorization: `Bearer ${jwt}`,
          cookie: 'sb-session=cookie-value-1',
          'set-cookie': ['sid=cookie-value-2; HttpOnly'],
          'X-Api-Key': 'header-api-key-3',
        },
        body: {
          email: 'ada@example.com',
          password: 'correct horse battery',
          nested: { deeper: { evenDeeper: { refreshToken: 'refresh-token-4', newPassword: 'new-pass-5' } } },
        },
        created: { key: 'api-key-6', keyHash: 'key-hash-7', tokenHash: 'token-hash-8' },
        endpoint: { url: 'https://example.com/hook', webhookSecret: 'webhook-secret-9' },
        factor: { totp: { secret: 'totp-secret-10', qr_code: '<svg>qr-11</svg>' } },
        escrowKey: { ciphertext: 'ciphertext-12', encryption: { kdf: 'PBKDF2', salt: 'c2FsdA==' } },
        wallet: { mnemonic: 'mnemonic-13', seed: 'seed-14', relayerPrivateKey: 'private-key-15' },
        payout: { nonce: 3, signatures: ['signature-16'], psbt: 'psbt-17' },
        query: { text: 'select 1', params: ['param-18'] },
        seedBytes: new Uint8Array([1, 2, 3, 4]),
        tokenAddress: '0x0000000000000000000000000000000000000001',
      },
      'probe',
    );
    for (let n = 1; n <= 18; n++) expect(written()).not.toMatch(new RegExp(`-${n}\\b`));
    expect(written()).not.toContain('correct horse battery');
    const [entry] = entries();
    // The field stays, its value goes: a reader sees what was there.
    expect(entry.headers.authorization).toBe('[redacted]');
    expect(entry.body.nested.deeper.evenDeeper.refreshToken).toBe('[redacted]');
    expect(entry.payout).toEqual({ nonce: 3, signatures: '[redacted]', psbt: '[redacted]' });
    // What an operator needs is still there.
    expect(entry.body.email).toBe('ada@example.com');
    expect(entry.endpoint.url).toBe('https://example.com/hook');
    expect(entry.escrowKey.encryption).toEqual({ kdf: 'PBKDF2', salt: 'c2FsdA==' });
    expect(entry.query.text).toBe('select 1');
    expect(entry.seedBytes).toBe('[4 bytes]');
    expect(entry.tokenAddress).toBe('0x0000000000000000000000000000000000000001');
  });

  it('redacts secrets by their shape in messages, texts and printf values', () => {
    const { logger, written } = collectingLogger();
    logger.warn(`upstream said: Authorization: Bearer ${jwt}`);
    logger.warn('redis at %s refused', 'redis://default:redis-password@cache:6379');
    logger.info({ note: `created ${apiKey} and ${webhookSecret}` }, 'keys');
    logger.info({ uri: `otpauth://totp/Covenant:ada?secret=${totpSecret}&issuer=Covenant` }, 'factor');
    logger.info({ calldata: `release(${signature})` }, 'payout');
    logger.info({ reason: 'connection refused: password=hunter2 token: tok-123' }, 'failed');
    logger.info(
      { pem: '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49\n-----END PRIVATE KEY-----' },
      'key',
    );
    for (const secret of [
      jwt,
      'redis-password',
      apiKey,
      webhookSecret,
      totpSecret,
      signature.slice(2),
      'hunter2',
      'tok-123',
      'MIGHAgEAMBMGByqGSM49',
    ]) {
      expect(written()).not.toContain(secret);
    }
    expect(written()).toContain('redis://default:[redacted]@cache:6379');
    expect(written()).toContain('cov_live_[redacted]');
    expect(written()).toContain('secret=[redacted]&issuer=Covenant');
    expect(written()).toContain('connection refused: password=[redacted]');
  });

  it("drops a failed query's parameters from the message, the stack and the fields, keeping the SQL", () => {
    const { logger, written, entries } = collectingLogger();
    const cause = Object.assign(
      new Error('duplicate key value violates unique constraint "api_keys_key_hash_unique"'),
      {
        severity: 'ERROR',
        code: '23505',
        detail: 'Key (key_hash)=(5f2b9c0e7d) already exists.',
        where: 'SQL statement "insert into audit values (\'where-value\')"',
        constraint: 'api_keys_key_hash_unique',
      },
    );
    const query = 'insert into "api_keys" ("name", "prefix", "key_hash") values ($1, $2, $3)';
    const failed = new DrizzleQueryError(query, ['desk', 'cov_live_abcd1234', '5f2b9c0e7d'], cause);
    // No message of its own: pino would take the error's raw message as the line's message.
    logger.error(failed);
    logger.error({ err: failed }, 'request failed');
    for (const value of ['5f2b9c0e7d', 'cov_live_abcd1234', 'desk', 'where-value']) {
      expect(written()).not.toContain(value);
    }
    const [bare, withMessage] = entries();
    expect(bare.msg).toBe(`Failed query: ${query}\nparams: [redacted]`);
    expect(withMessage.err).toMatchObject({
      type: 'DrizzleQueryError',
      query,
      params: '[redacted]',
      cause: {
        code: '23505',
        constraint: 'api_keys_key_hash_unique',
        detail: 'Key (key_hash)=([redacted]) already exists.',
      },
    });
    expect(withMessage.err.cause).not.toHaveProperty('where');
    expect(withMessage.err.stack).toMatch(
      /^Error: Failed query: insert into "api_keys"[^\n]*\nparams: \[redacted\]\n {4}at /,
    );
    expect(withMessage.err.stack).toContain(
      '\ncaused by: Error: duplicate key value violates unique constraint',
    );
  });

  it('redacts a hostile text quickly and without running out of stack', () => {
    const { logger, written } = collectingLogger();
    const started = performance.now();
    logger.info({ url: `/x?${'a=b='.repeat(4000)}&token=chained-secret` }, 'pairs');
    logger.info({ word: 'x'.repeat(200_000), spaced: 'key '.repeat(20_000) }, 'words');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(written()).not.toContain('chained-secret');
  });

  it('keeps the message of an entry whose fields cannot be read, and never throws at the caller', () => {
    const { logger, entries } = collectingLogger();
    const hostile = {
      get secret(): string {
        throw new Error('unreadable');
      },
    };
    expect(() => logger.warn({ hostile, password: 'never-written' }, 'still logged')).not.toThrow();
    expect(entries()).toEqual([
      expect.objectContaining({ msg: 'still logged', redactionFailed: 'Error: unreadable' }),
    ]);
  });

  it('survives cycles and depth, and redacts child bindings', () => {
    const { logger, entries } = collectingLogger();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    let deep: Record<string, unknown> = { password: 'too-deep-to-matter' };
    for (let level = 0; level < 20; level++) deep = { inner: deep };
    logger.child({ requestToken: 'child-binding-secret' }).info({ cyclic, deep }, 'shapes');
    const [entry] = entries();
    expect(entry.requestToken).toBe('[redacted]');
    expect(entry.cyclic).toEqual({ name: 'loop', self: '[circular]' });
    expect(JSON.stringify(entry.deep)).toContain('[too deep]');
    expect(JSON.stringify(entry)).not.toContain('too-deep-to-matter');
  });

  it('writes a generated request id as it is, and redacts one a client sent', () => {
    const { logger, entries } = collectingLogger();
    const generated = randomUUID();
    logger.child({ reqId: generated }).info('generated');
    logger.child({ reqId: 'cov_live_s3cretKeyFromTheHeader' }).info('sent');
    logger.child({ reqId: generated, apiKey: 'cov_live_other' }).info('more bindings');
    expect(entries().map((entry) => entry.reqId)).toEqual([generated, 'cov_live_[redacted]', generated]);
    expect(entries()[2]!.apiKey).toBe('[redacted]');
  });

  it('would leave every generated request id as it is anyway (why the walk may be skipped)', () => {
    for (let index = 0; index < 2000; index++) {
      const reqId = randomUUID();
      expect(redactLogValue({ reqId })).toEqual({ reqId });
    }
  });
});

describe('the pretty destination', () => {
  it('writes one human line per entry, synchronously', () => {
    const out: string[] = [];
    const logger = createLogger(
      'debug',
      createLogDestination('pretty', { write: (line: string) => out.push(line) }),
    );
    logger.info({ chain: 'ETH', chainId: 31337 }, 'chain ready');
    // Written before the call returned: nothing waits in a buffer or a worker thread.
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: chain ready \{"chain":"ETH","chainId":31337\}\n$/);
    logger.child({ reqId: 'r-1' }).debug(
      {
        req: { method: 'GET', url: '/api/v1/deals?token=abc', host: 'h', remoteAddress: '127.0.0.1' },
        res: { statusCode: 200 },
        responseTime: 4.1,
      },
      'request completed',
    );
    expect(out[1]).toMatch(
      /^\[\d\d:\d\d:\d\d\] DEBUG: request completed GET \/api\/v1\/deals\?token=\[redacted\] 200 4\.1 ms \{"reqId":"r-1"\}\n$/,
    );
  });

  it('passes JSON lines through as they are', () => {
    const out: string[] = [];
    const logger = createLogger(
      'info',
      createLogDestination('json', { write: (line: string) => out.push(line) }),
    );
    logger.info({ chain: 'ETH' }, 'chain ready');
    expect(JSON.parse(out[0] ?? '')).toMatchObject({ level: 30, chain: 'ETH', msg: 'chain ready' });
  });
});
