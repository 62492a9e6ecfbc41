import { describe, expect, it } from 'vitest';
import { createServerSentEventParser } from './parse-server-sent-events.js';

describe('createServerSentEventParser', () => {
  it('reads the deal stream: retry, events, keepalive comments', () => {
    const parser = createServerSentEventParser();
    expect(
      parser.push(
        'retry: 3000\n\nevent: deal\ndata: {"kind":"audit"}\n\n: keepalive\n\nevent: deal\ndata: {"kind":"message"}\n\n',
      ),
    ).toEqual([
      { event: 'deal', data: '{"kind":"audit"}' },
      { event: 'deal', data: '{"kind":"message"}' },
    ]);
  });

  it('waits for the rest of an event split across chunks, anywhere', () => {
    const parser = createServerSentEventParser();
    const stream = 'event: deal\ndata: {"kind":"audit"}\n\nevent: deal\ndata: {"kind":"message"}\n\n';
    const events = [...stream].flatMap((character) => parser.push(character));
    expect(events).toEqual([
      { event: 'deal', data: '{"kind":"audit"}' },
      { event: 'deal', data: '{"kind":"message"}' },
    ]);
  });

  it('joins data lines, accepts CRLF, names unnamed events "message", ignores unknown fields', () => {
    const parser = createServerSentEventParser();
    expect(parser.push('id: 7\r\ndata: one\r\ndata:two\r\nfoo: bar\r\n\r\n')).toEqual([
      { event: 'message', data: 'one\ntwo' },
    ]);
    expect(parser.push('event: deal\n\n')).toEqual([]);
  });
});
