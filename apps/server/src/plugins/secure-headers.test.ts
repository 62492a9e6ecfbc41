import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { headersOf } from './secure-headers.js';

const newResponse = () => new ServerResponse(new IncomingMessage(new Socket()));

describe('headersOf', () => {
  it.each([
    ['defaults', {}],
    [
      'a policy with HSTS and a frame rule',
      {
        contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"] } },
        strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
        xFrameOptions: { action: 'deny' as const },
      },
    ],
  ])('leaves a response with the headers helmet itself gives it (%s)', (_name, options) => {
    const middleware = helmet(options);
    const byHelmet = newResponse();
    byHelmet.setHeader('X-Powered-By', 'Express');
    middleware({} as IncomingMessage, byHelmet, () => {});

    const fromList = newResponse();
    fromList.setHeader('X-Powered-By', 'Express');
    const { set, removed } = headersOf(middleware);
    for (const [name, value] of set) fromList.setHeader(name, value);
    for (const name of removed) fromList.removeHeader(name);

    expect(fromList.getHeaders()).toEqual(byHelmet.getHeaders());
    expect(Object.keys(fromList.getHeaders()).length).toBeGreaterThan(8);
    expect(fromList.hasHeader('x-powered-by')).toBe(false);
  });
});
