import { isatty } from 'node:tty';
import pino from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { Config } from '../config.js';

/**
 * Where log lines go: `json` writes the logger's JSON lines as they are (for a log collector);
 * `pretty` turns each into one human line (`[12:00:01] WARN: message {fields}`, errors with their
 * stack below). Both write synchronously to stdout, in this process: no worker thread, nothing
 * buffered to lose when the process exits or is killed, and the start banner stays in order.
 */
export function createLogDestination(
  format: Config['logFormat'],
  target?: pino.DestinationStream,
): pino.DestinationStream {
  const out = target ?? pino.destination({ dest: 1, sync: true });
  if (format === 'json') return out;
  const prettify = prettyFactory({
    colorize: target === undefined && isatty(1),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,req,res,responseTime',
    singleLine: true,
    messageFormat: formatMessage,
  });
  return { write: (line: string) => out.write(prettify(line)) };
}

/** A request line reads `request completed GET /api/v1/deals 200 4.1 ms`: its fields are hidden above. */
function formatMessage(log: Record<string, unknown>, messageKey: string): string {
  const parts = [String(log[messageKey] ?? '')];
  const request = log.req as { method?: string; url?: string } | undefined;
  const reply = log.res as { statusCode?: number } | undefined;
  if (request?.method) parts.push(request.method, request.url ?? '');
  if (reply?.statusCode) parts.push(String(reply.statusCode));
  if (typeof log.responseTime === 'number') parts.push(`${log.responseTime} ms`);
  return parts.join(' ');
}
