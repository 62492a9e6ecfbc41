import { AppError, findUnstorableText, unstorableTextMessage } from '@covenant/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Deeper input than this is refused: no route takes it, and walking or storing it costs stack. */
export const maximumInputDepth = 64;

interface Found {
  path: string;
  problem: string;
}

/**
 * Refuses, before any route's schema runs, every request whose path parameters, query or parsed
 * body holds a string (a value or a key) with a NUL character or an unpaired surrogate: PostgreSQL
 * cannot store either, JSON.parse turns a `\ud800` escape into a lone surrogate, and a route that
 * forgot to check would answer 500. One hook on the whole app, so no route can forget it. The
 * answer is 422 `INVALID_TEXT` (GoTrue's shape under /auth/v1, whose error handler turns it so).
 */
export function refuseUnstorableText(app: FastifyInstance): void {
  // Synchronous: a refusal is thrown, which Fastify answers as it would a rejected promise.
  app.addHook('preValidation', (request, _reply, done) => {
    for (const [place, value] of inputsOf(request)) {
      const found = findInInput(value);
      if (found === 'too deep') {
        throw new AppError(
          'VALIDATION_FAILED',
          `The ${place} is nested deeper than ${maximumInputDepth} levels`,
          {
            in: place,
            issues: [],
          },
        );
      }
      if (found) {
        const message = `${unstorableTextMessage} (${found.problem} in ${place}${found.path || ''})`;
        throw new AppError('INVALID_TEXT', message, {
          in: place,
          issues: [{ path: found.path || '/', message: unstorableTextMessage }],
        });
      }
    }
    done();
  });
}

function inputsOf(request: FastifyRequest): Array<[string, unknown]> {
  return [
    ['params', request.params],
    ['querystring', request.query],
    ['body', request.body],
  ];
}

/**
 * Walks plain objects and arrays without recursion (a 1 MB body can nest 500,000 levels deep) and
 * returns the first unstorable string with its JSON pointer; a bad key is reported at its object.
 */
function findInInput(input: unknown): Found | 'too deep' | null {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [
    { value: input, path: '', depth: 0 },
  ];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path, depth } = next;
    if (typeof value === 'string') {
      const problem = findUnstorableText(value);
      if (problem) return { path, problem };
      continue;
    }
    if (!isWalkable(value)) continue;
    if (depth >= maximumInputDepth) return 'too deep';
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        pending.push({ value: item, path: `${path}/${index}`, depth: depth + 1 });
      });
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      const problem = findUnstorableText(key);
      if (problem) return { path, problem: `${problem} in a key` };
      pending.push({ value: item, path: `${path}/${escapePointer(key)}`, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * Parsed JSON and query objects only; buffers and streams (uploads) are not text. The query parser
 * builds its objects on a prototype that itself has none, hence the second level.
 */
function isWalkable(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null || Object.getPrototypeOf(prototype) === null;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
