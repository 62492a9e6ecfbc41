import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import type { Config } from '../config.js';
import { maskUrl, redactText } from './redact-log-text.js';
import {
  type LoggedError,
  redactLogField,
  redactLogValue,
  serializeLoggedError,
} from './redact-log-value.js';

/** Fastify logs its request and reply objects under these keys; their serializers pick the fields. */
const fastifyObjectKeys = new Set(['req', 'res']);

/**
 * The process's logger: JSON lines (made human by the pretty destination), request ids added by
 * Fastify. Redaction happens here, for every caller — routes, jobs, the escrow engine, Fastify
 * itself: each call's fields are walked to any depth against the redaction list, errors lose their
 * SQL parameters and quoted row data, texts lose what looks like a secret (log-redaction-list.ts).
 */
export function createLogger(
  level: Config['logLevel'],
  destination?: pino.DestinationStream,
): FastifyBaseLogger {
  const logger = pino(
    {
      level,
      hooks: {
        logMethod(args, method) {
          let redactedArgs: unknown[];
          try {
            redactedArgs = redactArguments(args);
          } catch (error) {
            // A value that cannot be walked (a throwing getter) costs its fields, never the caller's request.
            const message = args.find((arg): arg is string => typeof arg === 'string');
            redactedArgs = [
              { redactionFailed: redactText(String(error)) },
              redactText(message ?? 'log entry dropped'),
            ];
          }
          method.apply(this, redactedArgs as Parameters<typeof method>);
        },
      },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: maskUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
        res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
        // Errors arrive already serialized by logMethod; one passed some other way is caught here.
        err: (error: unknown) => (error instanceof Error ? serializeLoggedError(error) : error),
      },
    },
    // Synchronous writes: a line logged just before exit or a crash is on the terminal, not in a buffer.
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
  // A child's bindings are written on each of its lines without passing logMethod; children are
  // made from their parent's prototype, so this reaches every generation (Fastify's request loggers too).
  const child = logger.child;
  logger.child = function redactedChild(this: pino.Logger, bindings, options) {
    const redacted = isGeneratedRequestId(bindings) ? bindings : (redactLogValue(bindings) as pino.Bindings);
    return child.call(this, redacted, options);
  } as typeof logger.child;
  return logger;
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Fastify's bindings for a request's logger when the server made the request id itself (a UUID):
 * nothing in them can be a secret, so every request is spared walking them (the tests check that
 * redaction leaves such an id as it is). An id a client sent is walked like any other value.
 */
function isGeneratedRequestId(bindings: pino.Bindings): boolean {
  if (Object.getPrototypeOf(bindings) !== Object.prototype) return false;
  let keys = 0;
  for (const key in bindings) {
    if (key !== 'reqId' || ++keys > 1) return false;
  }
  const reqId = bindings.reqId;
  return typeof reqId === 'string' && uuidShape.test(reqId);
}

/**
 * A log call's arguments with secrets removed: the fields object (or an error, which becomes
 * `{err}`), the message, and printf-style values. A call without a message takes the error's
 * redacted message, as pino would take the raw one.
 */
function redactArguments(args: unknown[]): unknown[] {
  const [first, ...rest] = args;
  if (typeof first !== 'object' || first === null) return args.map((arg) => redactLogValue(arg));
  const fields = redactFields(first instanceof Error ? { err: first } : (first as Record<string, unknown>));
  const values = rest.map((arg) => redactLogValue(arg));
  const err = fields.err as LoggedError | undefined;
  if (typeof values[0] !== 'string' && typeof err?.message === 'string' && fields.msg === undefined) {
    values.unshift(err.message);
  }
  return [fields, ...values];
}

function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    const fastifyObject = fastifyObjectKeys.has(key) && !isPlainObject(value);
    result[key] = fastifyObject ? value : redactLogField(key, value);
  }
  return result;
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
