import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import type { Config } from '../config.js';

/** Body and object fields that hold credentials; logged as "[redacted]" at any of the first three depths. */
const secretFields = [
  'password',
  'current_password',
  'new_password',
  'access_token',
  'refresh_token',
  'provider_token',
  'token',
  'token_hash',
  'secret',
];

const redactedPaths = [
  ...['authorization', 'cookie', 'apikey'].flatMap((header) => [
    `req.headers.${header}`,
    `headers.${header}`,
  ]),
  'res.headers["set-cookie"]',
  ...secretFields.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
];

// Verification and recovery links carry their token in the query string.
const secretQueryParameter = new RegExp(`([?&](?:${secretFields.join('|')}|code)=)[^&#]*`, 'gi');

function maskUrl(url: string): string {
  return url.replace(secretQueryParameter, '$1[redacted]');
}

/** The process's logger: JSON lines, request ids added by Fastify, credentials never written. */
export function createLogger(
  level: Config['logLevel'],
  destination?: pino.DestinationStream,
): FastifyBaseLogger {
  return pino(
    {
      level,
      redact: { paths: redactedPaths, censor: '[redacted]' },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: maskUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
        res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}
