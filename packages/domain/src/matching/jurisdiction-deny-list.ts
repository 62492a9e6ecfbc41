import { isAssignedCountryCode } from '../cis/country-codes.js';

/**
 * Jurisdictions the platform does not match: a country on its own (nobody there is suggested, nor
 * gets suggestions), or a pair of countries whose parties are not suggested to each other (either
 * way round). Written as `KP,IR,US-CU` in the server's settings.
 */
export interface JurisdictionDenyList {
  countries: ReadonlySet<string>;
  /** Each pair as "AA-BB" with the codes in alphabetical order. */
  pairs: ReadonlySet<string>;
}

export const emptyJurisdictionDenyList: JurisdictionDenyList = { countries: new Set(), pairs: new Set() };

const pairKey = (a: string, b: string) => (a < b ? `${a}-${b}` : `${b}-${a}`);

/**
 * Reads `KP, IR, US-CU` (any case, blanks ignored). Answers the entries it cannot read by name, so
 * the server refuses to start on a typo rather than silently matching a country it meant to deny.
 */
export function parseJurisdictionDenyList(
  text: string,
): { ok: true; list: JurisdictionDenyList } | { ok: false; invalid: string[] } {
  const countries = new Set<string>();
  const pairs = new Set<string>();
  const invalid: string[] = [];
  for (const raw of text.split(',')) {
    const entry = raw.trim().toUpperCase();
    if (entry === '') continue;
    const codes = entry.split('-');
    if (codes.length > 2 || !codes.every(isAssignedCountryCode)) {
      invalid.push(raw.trim());
    } else if (codes.length === 1) {
      countries.add(codes[0]!);
    } else {
      pairs.add(pairKey(codes[0]!, codes[1]!));
    }
  }
  return invalid.length > 0 ? { ok: false, invalid } : { ok: true, list: { countries, pairs } };
}

/** Whether parties in `a` and `b` may be suggested to each other. */
export function jurisdictionsMayMatch(list: JurisdictionDenyList, a: string, b: string): boolean {
  return !list.countries.has(a) && !list.countries.has(b) && !list.pairs.has(pairKey(a, b));
}
