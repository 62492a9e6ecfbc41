import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from '../config.js';
import { createLogger } from './create-logger.js';
import { createRequestLogController } from './create-request-log-controller.js';

/** A bare Fastify app with the process's logger at `level`, and what it logged, line by line. */
async function appLoggingAt(level: Config['logLevel'], format: Config['logFormat']) {
  const lines: string[] = [];
  const app = Fastify({
    loggerInstance: createLogger(level, { write: (line: string) => lines.push(line) }),
    logController: createRequestLogController(format),
  });
  app.get('/deals', async () => ({ data: [] }));
  await app.ready();
  return { app, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('request lines', () => {
  it('in JSON: one line per request at info, on completion, with what an access log needs', async () => {
    const { app, entries } = await appLoggingAt('info', 'json');
    await app.inject({
      method: 'GET',
      url: '/deals?token=link-secret&limit=5',
      headers: { 'x-request-id': 'r' },
    });
    await app.inject({ method: 'GET', url: '/missing' });
    // A provider's callback: its code and the state binding it to a browser stay out of the log.
    await app.inject({ method: 'GET', url: '/callback?state=browser-state&code=provider-code&iss=x' });
    // A staff search: the person looked up stays out of the log.
    await app.inject({ method: 'GET', url: '/deals?q=alice%40example.com&query=Alice+Smith&limit=5' });
    expect(entries().filter((line) => line.msg === 'incoming request')).toEqual([]);
    const lines = entries().filter((line) => line.msg === 'request completed');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({
      level: 30,
      reqId: expect.any(String),
      req: { method: 'GET', url: '/deals?token=[redacted]&limit=5' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(lines[1]).toMatchObject({ req: { url: '/missing' }, res: { statusCode: 404 } });
    expect(lines[2]).toMatchObject({ req: { url: '/callback?state=[redacted]&code=[redacted]&iss=x' } });
    expect(lines[3]).toMatchObject({ req: { url: '/deals?q=[redacted]&query=[redacted]&limit=5' } });
    await app.close();
  });

  it('pretty: no request lines at info, one per request at debug', async () => {
    const quiet = await appLoggingAt('info', 'pretty');
    await quiet.app.inject({ method: 'GET', url: '/deals' });
    expect(quiet.entries()).toEqual([]);
    await quiet.app.close();

    const verbose = await appLoggingAt('debug', 'pretty');
    await verbose.app.inject({ method: 'GET', url: '/deals' });
    expect(verbose.entries()).toMatchObject([
      { level: 20, msg: 'request completed', res: { statusCode: 200 } },
    ]);
    await verbose.app.close();
  });
});
