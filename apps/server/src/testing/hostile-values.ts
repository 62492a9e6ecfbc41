import fc from 'fast-check';

/** A string just above the 1 MiB body limit, and one under it that still passes the parser. */
const oneMebibyte = 'x'.repeat(1024 * 1024);
const almostOneMebibyte = 'y'.repeat(900 * 1024);

/** `[[[…]]]` deeper than any route takes (the raw bodies of the fuzz suite nest far deeper still). */
function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let level = 1; level < depth; level += 1) value = [value];
  return value;
}

function nestedObjects(depth: number): unknown {
  let value: unknown = { leaf: true };
  for (let level = 1; level < depth; level += 1) value = { nested: value };
  return value;
}

/** Strings no text field should store, and strings that look like something else. */
export const hostileStrings: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'lone \udfff low',
  'x\ud83d',
  '\u202eevil',
  '\u0007\u001b[31mred',
  '\r\n\t',
  '\u0085\u009f',
  '__proto__',
  'constructor',
  'prototype',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '{{7*7}}',
  '123',
  '-1',
  '1e400',
  '0x10',
  'NaN',
  'Infinity',
  'true',
  'null',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'not-a-uuid',
  '😀'.repeat(5000),
  'a'.repeat(100_000),
  almostOneMebibyte,
  oneMebibyte,
];

/** Numbers at and past every edge a schema might forget. */
export const hostileNumbers: readonly number[] = [
  0,
  -0,
  -1,
  0.5,
  -0.5,
  1e-7,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e21,
  1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
];

/** Objects that try to reach a prototype: JSON.parse makes `__proto__` an own key, as from a client. */
const pollutingObjects: readonly unknown[] = [
  JSON.parse('{"__proto__": {"polluted": "yes"}}'),
  JSON.parse('{"constructor": {"prototype": {"polluted": "yes"}}}'),
  JSON.parse('{"__proto__": {"__proto__": {"polluted": "yes"}}}'),
];

/** Any JSON value a client could send where a schema expects something else. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...hostileStrings) },
    { weight: 3, arbitrary: fc.constantFrom(...hostileNumbers) },
    { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], [[]], [{}]) },
    { weight: 2, arbitrary: fc.constantFrom(...pollutingObjects) },
    { weight: 1, arbitrary: fc.constantFrom(nestedArrays(1000), nestedObjects(200), nestedObjects(40)) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  );
}

/** Path segments as a client may write them, percent-encoding included (sent as they are). */
export const hostilePathSegments: readonly string[] = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%F0%9F',
  '%',
  '%zz',
  '..',
  '%2e%2e%2f%2e%2e',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '123',
  '-1',
  '1e400',
  '__proto__',
  'constructor',
  '%E2%80%AE',
  'a'.repeat(5000),
];
