import { randomBytes } from 'node:crypto';

/** Stands in for a bigint while JSON.stringify runs; random so no string in a reply can imitate it. */
const marker = `bigint-${randomBytes(8).toString('hex')}:`;
const markerPattern = new RegExp(`"${marker}(-?\\d+)"`, 'g');

/** JSON with bigints written as plain numbers (u64 lamports do not fit a double), as solana's RPC writes them. */
export function stringifyRpcJson(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    typeof item === 'bigint' ? `${marker}${item}` : item,
  ).replace(markerPattern, '$1');
}

/** JSON for the devnet's own files: bigints round-trip as `{ "$bigint": "…" }`. */
export function stringifyStateJson(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    typeof item === 'bigint' ? { $bigint: item.toString() } : item,
  );
}

export function parseStateJson<T>(text: string): T {
  return JSON.parse(text, (_key, item) =>
    item && typeof item === 'object' && typeof item.$bigint === 'string' ? BigInt(item.$bigint) : item,
  ) as T;
}
