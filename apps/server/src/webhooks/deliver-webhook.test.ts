import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { type Database, schema } from '@covenant/db';
import { createTestDatabase } from '@covenant/db/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../build-test-app.js';
import { createTestTrader } from '../testing/create-test-trader.js';
import { type DeliverWebhookDeps, deliverWebhook } from './deliver-webhook.js';
import { listWebhookDeliveries } from './list-webhook-deliveries.js';

interface Receiver {
  port: number;
  requests: Array<{ host: string | undefined; path: string }>;
}

let database: Database;
let testApp: TestApp;
let userId: string;
const servers: Server[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp({ database });
  userId = (await createTestTrader(testApp.app)).id;
});
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});
afterAll(async () => {
  await testApp?.close();
  await database?.close();
});

/** An HTTP server on `host` that records every request and answers with `answer`. */
async function startReceiver(
  host: string,
  port: number,
  answer: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) =>
    response.end(),
): Promise<Receiver> {
  const requests: Receiver['requests'] = [];
  const server = createServer((request, response) => {
    requests.push({ host: request.headers.host, path: request.url ?? '' });
    request.resume();
    answer(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { port: (server.address() as AddressInfo).port, requests };
}

/** An endpoint with this URL and one pending delivery, written straight to the database. */
async function pendingDelivery(url: string): Promise<{ endpointId: string; deliveryId: string }> {
  const db = database.db;
  const [endpoint] = await db
    .insert(schema.webhookEndpoints)
    .values({ userId, url, events: ['deal.created'], secret: 'whsec_test' })
    .returning();
  const [delivery] = await db
    .insert(schema.webhookDeliveries)
    .values({ endpointId: endpoint!.id, event: 'deal.created', body: '{"type":"deal.created"}' })
    .returning();
  return { endpointId: endpoint!.id, deliveryId: delivery!.id };
}

async function attemptsOf(endpointId: string) {
  const [delivery] = await listWebhookDeliveries(database.db, userId, endpointId, 1);
  return delivery!.attempts;
}

function deps(overrides: Partial<DeliverWebhookDeps> = {}): DeliverWebhookDeps {
  return { db: database.db, now: () => new Date(), allowPrivateTargets: true, ...overrides };
}

describe('deliverWebhook', () => {
  it('connects to the address it checked, even when DNS would answer differently by then', async () => {
    const checked = await startReceiver('127.0.0.1', 0);
    const other = await startReceiver('127.0.0.2', checked.port);
    const asked: string[] = [];
    // The first answer is the one checked; every later lookup would send the request elsewhere.
    const resolveHost = async (host: string) => {
      asked.push(host);
      return asked.length === 1 ? ['127.0.0.1'] : ['127.0.0.2'];
    };
    // .test never resolves in real DNS: a lookup of its own by the HTTP client would fail.
    const url = `http://hooks.covenant.test:${checked.port}/in`;
    const { deliveryId } = await pendingDelivery(url);

    expect(await deliverWebhook(deps({ resolveHost }), deliveryId)).toBe('succeeded');
    expect(asked).toEqual(['hooks.covenant.test']);
    expect(checked.requests).toEqual([{ host: `hooks.covenant.test:${checked.port}`, path: '/in' }]);
    expect(other.requests).toEqual([]);

    // The next attempt resolves again and goes where that check said.
    expect(await deliverWebhook(deps({ resolveHost }), deliveryId)).toBe('succeeded');
    expect(asked).toHaveLength(2);
    expect(checked.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(1);
  });

  it('follows no redirect: a 302 to a private address is a failed attempt with that status', async () => {
    const inside = await startReceiver('127.0.0.2', 0);
    const target = await startReceiver('127.0.0.1', 0, (_request, response) => {
      response.writeHead(302, { location: `http://127.0.0.2:${inside.port}/admin` }).end();
    });
    const { endpointId, deliveryId } = await pendingDelivery(`http://127.0.0.1:${target.port}/in`);

    expect(await deliverWebhook(deps(), deliveryId)).toBe('failed');
    const [attempt] = await attemptsOf(endpointId);
    expect(attempt).toEqual({
      attempted_at: expect.any(String),
      response_status: 302,
      error: 'HTTP 302',
      duration_ms: expect.any(Number),
    });
    expect(target.requests).toHaveLength(1);
    expect(inside.requests).toEqual([]);
  });

  it("refuses, at every attempt, a target on this server's own address and contacts nothing", async () => {
    const ownAddress = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .find((entry) => !entry.internal && entry.family === 'IPv4')?.address;
    if (!ownAddress) throw new Error('this test needs a non-loopback IPv4 interface');
    const receiver = await startReceiver('0.0.0.0', 0);
    const { endpointId, deliveryId } = await pendingDelivery(`http://${ownAddress}:${receiver.port}/`);

    expect(await deliverWebhook(deps({ allowPrivateTargets: false }), deliveryId)).toBe('failed');
    const [attempt] = await attemptsOf(endpointId);
    expect(attempt).toMatchObject({ response_status: null });
    expect(attempt!.error).toMatch(
      new RegExp(
        `^The webhook URL points to ${ownAddress.replaceAll('.', '\\.')}, which is not a public internet address \\(.+\\)$`,
      ),
    );
    expect(receiver.requests).toEqual([]);

    // The same URL is delivered when private targets are allowed (tests, local development).
    expect(await deliverWebhook(deps(), deliveryId)).toBe('succeeded');
    expect(receiver.requests).toHaveLength(1);
  });

  it('logs only the status and duration of the target, never what it or the network said', async () => {
    const chatty = await startReceiver('127.0.0.1', 0, (_request, response) => {
      response
        .writeHead(500, { 'x-internal-version': 'db-7.4.1', location: 'http://10.0.0.9/' })
        .end('stack trace: connect ECONNREFUSED 10.0.0.9:5432');
    });
    const closed = await startReceiver('127.0.0.1', 0);
    servers.pop()?.close();
    const chattyDelivery = await pendingDelivery(`http://127.0.0.1:${chatty.port}/in`);
    const closedDelivery = await pendingDelivery(`http://127.0.0.1:${closed.port}/in`);

    await deliverWebhook(deps(), chattyDelivery.deliveryId);
    await deliverWebhook(deps(), closedDelivery.deliveryId);
    expect(await attemptsOf(chattyDelivery.endpointId)).toEqual([
      {
        attempted_at: expect.any(String),
        response_status: 500,
        error: 'HTTP 500',
        duration_ms: expect.any(Number),
      },
    ]);
    expect(await attemptsOf(closedDelivery.endpointId)).toEqual([
      {
        attempted_at: expect.any(String),
        response_status: null,
        error: 'connection refused',
        duration_ms: expect.any(Number),
      },
    ]);
  });

  it('settles on the head of the answer without reading a body that never ends', async () => {
    const trickling = await startReceiver('127.0.0.1', 0, (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('still going…');
    });
    const { endpointId, deliveryId } = await pendingDelivery(`http://127.0.0.1:${trickling.port}/in`);
    const started = Date.now();
    expect(await deliverWebhook(deps(), deliveryId)).toBe('succeeded');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await attemptsOf(endpointId)).toMatchObject([{ response_status: 200, error: null }]);
  });
});
