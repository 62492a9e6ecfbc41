/** One event of a `text/event-stream`: its name ('message' when the stream gives none) and data. */
export type ServerSentEvent = { event: string; data: string };

/**
 * Reads a `text/event-stream` as it arrives, chunk by chunk (a chunk may end anywhere, even inside a
 * line): `push` returns the events that chunk completed. Comments (`: keepalive`) and `retry:`/`id:`
 * lines are skipped; several `data:` lines join with a line break, as the format says.
 */
export function createServerSentEventParser() {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  return {
    push(chunk: string): ServerSentEvent[] {
      buffer += chunk;
      const events: ServerSentEvent[] = [];
      const lines = buffer.split(/\r\n|\r|\n/);
      // The last piece is an unfinished line (or '' after a line break): kept for the next chunk.
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) events.push({ event: event || 'message', data: data.join('\n') });
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      return events;
    },
  };
}
