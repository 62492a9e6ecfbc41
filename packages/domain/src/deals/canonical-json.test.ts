import { describe, expect, it } from 'vitest';
import { type CanonicalValue, canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[true,null]},"b":1}',
    );
  });

  it('escapes strings as JSON.stringify does and sorts keys by code unit', () => {
    expect(canonicalJson({ é: 'a"b\n', Z: '', a: '' })).toBe('{"Z":"","a":"","é":"a\\"b\\n"}');
  });

  it.each([
    ['a fraction', 1.5],
    ['an unsafe integer', 2 ** 53],
    ['NaN', Number.NaN],
  ])('refuses %s', (_name, number) => {
    expect(() => canonicalJson({ n: number })).toThrow(TypeError);
  });

  it('refuses undefined members and non-plain objects', () => {
    expect(() => canonicalJson({ a: undefined } as unknown as CanonicalValue)).toThrow(TypeError);
    expect(() => canonicalJson(new Date(0) as unknown as CanonicalValue)).toThrow(TypeError);
  });
});
