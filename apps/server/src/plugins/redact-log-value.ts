import { databaseErrorFieldsDropped, isSecretField, redacted } from './log-redaction-list.js';
import { maskDatabaseText, redactText } from './redact-log-text.js';

/** Deeper than this a logged value is cut: no log line needs it, and a cycle never gets this far. */
const maxDepth = 10;

/** An error as it is logged: what failed and where, never the data it failed on. */
export interface LoggedError {
  type: string;
  message: string;
  /** The error's stack, then each cause's (`caused by: …`), with their messages redacted. */
  stack?: string;
  [field: string]: unknown;
}

/**
 * A value about to be logged, as JSON would write it, with its secrets removed: fields on the
 * redaction list by name at any depth, errors by `serializeLoggedError`, texts by their shape,
 * binary data by its size.
 */
export function redactLogValue(value: unknown): unknown {
  return redactAt(value, 0, new Set());
}

/** One field of a log call, redacted as `redactLogValue` would inside an object. */
export function redactLogField(key: string, value: unknown): unknown {
  return redactField(key, value, 0, new Set());
}

/** An error as a log line carries it: type, redacted message and stack, its fields and causes. */
export function serializeLoggedError(error: Error): LoggedError {
  return serializeAt(error, 0, new Set());
}

/** `ancestors` holds the objects being walked above this one: only a true cycle is cut. */
function redactAt(value: unknown, depth: number, ancestors: Set<object>): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value;
  if (ancestors.has(value)) return '[circular]';
  if (depth >= maxDepth) return '[too deep]';
  if (value instanceof Error) return serializeAt(value, depth, ancestors);
  // Keys, seeds and signatures travel as bytes; their size is all a log line needs.
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactAt(item, depth + 1, ancestors));
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return redactAt(toJSON.call(value), depth + 1, ancestors);
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    const result: Record<string, unknown> = {};
    for (const [key, field] of entries) {
      result[String(key)] = redactField(String(key), field, depth, ancestors);
    }
    return result;
  } finally {
    ancestors.delete(value);
  }
}

function redactField(key: string, value: unknown, depth: number, ancestors: Set<object>): unknown {
  if (value !== undefined && value !== null && isSecretField(key)) return redacted;
  return redactAt(value, depth + 1, ancestors);
}

function serializeAt(error: Error, depth: number, ancestors: Set<object>): LoggedError {
  ancestors.add(error);
  try {
    const database = isDatabaseError(error);
    const maskText = database ? maskDatabaseText : redactText;
    const type = errorType(error);
    const message = maskText(String(error.message));
    const logged: LoggedError = { type, message };
    const stack = typeof error.stack === 'string' ? error.stack : undefined;
    if (stack) {
      // The stack's first line repeats the raw message: it is rebuilt from the redacted one.
      const frames = stack.indexOf('\n    at ');
      logged.stack = redactText(`${error.name}: ${message}${frames >= 0 ? stack.slice(frames) : ''}`);
    }
    for (const [key, value] of Object.entries(error)) {
      if (key === 'cause' || key === 'errors' || value === undefined) continue;
      if (database && databaseErrorFieldsDropped.has(key)) continue;
      logged[key] =
        typeof value === 'string' && !isSecretField(key)
          ? maskText(value)
          : redactField(key, value, depth, ancestors);
    }
    if (Array.isArray((error as { errors?: unknown }).errors)) {
      logged.errors = redactAt((error as AggregateError).errors, depth + 1, ancestors);
    }
    if (error.cause !== undefined) {
      const cause = redactAt(error.cause, depth + 1, ancestors);
      if (isLoggedError(cause) && cause.stack !== undefined) {
        // One stack to read, as Node prints it; the cause keeps its own fields (code, constraint, …).
        logged.stack = `${logged.stack ?? `${error.name}: ${message}`}\ncaused by: ${cause.stack}`;
        delete cause.stack;
      }
      logged.cause = cause;
    }
    return logged;
  } finally {
    ancestors.delete(error);
  }
}

/** drizzle's DrizzleQueryError keeps the name `Error`; its class says what it is. */
function errorType(error: Error): string {
  const constructorName = (error.constructor as { name?: unknown } | undefined)?.name;
  return typeof constructorName === 'string' && constructorName !== '' ? constructorName : error.name;
}

/** An error PostgreSQL (through pg or PGlite) sent: a SQLSTATE code and a severity. */
function isDatabaseError(error: Error): boolean {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}

function isLoggedError(value: unknown): value is LoggedError {
  return typeof value === 'object' && value !== null && 'type' in value && 'message' in value;
}
