import { describe, expect, it } from 'vitest';
import {
  findUnstorableText,
  invalidTextCode,
  isInvalidTextIssue,
  isMultiLineText,
  isSingleLineText,
  multiLineText,
  singleLineText,
  singleLineTextMessage,
} from './text-rules.js';

describe('findUnstorableText', () => {
  it('finds NUL and unpaired surrogates, and passes paired ones', () => {
    expect(findUnstorableText('a\u0000b')).toBe('NUL');
    expect(findUnstorableText('a\ud800b')).toBe('unpaired surrogate');
    expect(findUnstorableText('\ud800')).toBe('unpaired surrogate');
    expect(findUnstorableText('\udc00x')).toBe('unpaired surrogate');
    expect(findUnstorableText('x\ud83d')).toBe('unpaired surrogate');
    expect(findUnstorableText('\ud83d\ude00 Grüße, 你好')).toBeNull();
    expect(findUnstorableText('tab\tand\nlines\u0007')).toBeNull();
  });
});

describe('isSingleLineText and isMultiLineText', () => {
  it('refuse C0, DEL, C1 and direction overrides; multi-line text keeps tabs and line breaks', () => {
    for (const bad of [
      'a\u0001',
      'a\u001b[31m',
      'a\u007f',
      'a\u0085',
      'a\u009f',
      'a\u202e',
      'a\u202a',
      'a\u2066',
      'a\u2069',
    ]) {
      expect(isSingleLineText(bad), JSON.stringify(bad)).toBe(false);
      expect(isMultiLineText(bad), JSON.stringify(bad)).toBe(false);
    }
    for (const lines of ['a\tb', 'a\nb', 'a\r\nb']) {
      expect(isSingleLineText(lines)).toBe(false);
      expect(isMultiLineText(lines)).toBe(true);
    }
    expect(isSingleLineText('Trading bot № 2 — Zürich 🚀')).toBe(true);
    expect(isSingleLineText('a\u200fb')).toBe(true);
    expect(isMultiLineText('a\u0000')).toBe(false);
    expect(isMultiLineText('a\udfff')).toBe(false);
  });
});

describe('singleLineText and multiLineText', () => {
  it('trim, keep the limits chained after them, and mark a refusal with the INVALID_TEXT code', () => {
    const name = singleLineText().min(1, 'Enter a name').max(5);
    expect(name.parse('  bot  ')).toBe('bot');
    expect(name.safeParse('   ').error?.issues[0]?.message).toBe('Enter a name');
    expect(name.safeParse('toolong').success).toBe(false);
    const refused = name.safeParse('a\u202eb').error?.issues ?? [];
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ message: singleLineTextMessage, params: { code: invalidTextCode } });
    expect(isInvalidTextIssue(refused[0]!)).toBe(true);
    expect(isInvalidTextIssue({ params: { params: { code: invalidTextCode } } })).toBe(true);
    expect(isInvalidTextIssue({ params: { minimum: 1 } })).toBe(false);

    const message = multiLineText('No controls here').max(100);
    expect(message.parse(' line one\n\tline two ')).toBe('line one\n\tline two');
    expect(message.safeParse('bell\u0007').error?.issues[0]?.message).toBe('No controls here');
    expect(message.safeParse('lone \ud800').success).toBe(false);
  });
});
