/** A value canonicalJson accepts: what JSON can carry, with integers as the only numbers. */
export type CanonicalValue =
  | string
  | number
  | boolean
  | null
  | readonly CanonicalValue[]
  | { readonly [key: string]: CanonicalValue };

/**
 * One byte-exact JSON text per value, so a hash over it can be recomputed anywhere: object keys
 * sorted by UTF-16 code units (JavaScript's default sort), no whitespace, strings escaped as
 * JSON.stringify escapes them, numbers only as safe integers in plain decimal. Fractions, NaN,
 * undefined and anything not plain JSON throw, because their text differs between implementations;
 * timestamps travel as ISO-8601 strings and amounts as decimal strings.
 */
export function canonicalJson(value: CanonicalValue): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value))
      throw new TypeError(`canonical JSON holds only safe integers: ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const object = value as { readonly [key: string]: CanonicalValue };
    const members = Object.keys(object)
      .sort()
      .map((key) => {
        if (object[key] === undefined) throw new TypeError(`canonical JSON has no undefined (at ${key})`);
        return `${JSON.stringify(key)}:${canonicalJson(object[key])}`;
      });
    return `{${members.join(',')}}`;
  }
  throw new TypeError(`canonical JSON cannot hold ${typeof value}`);
}
