import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { type CanonicalValue, canonicalJson } from './canonical-json.js';
import { dealAuditTrailSchema } from './deal.js';

/** The prev_hash of a deal's first audit entry. */
export const genesisHash = '0'.repeat(64);

/** The fields of an audit entry its hash covers, as the API and the JSON export name them. */
export interface AuditEntryContent {
  deal_id: string;
  seq: number;
  actor_id: string | null;
  action: string;
  payload: Record<string, unknown>;
  created_at: string;
}

/** An entry as stored and shown: its content with the chain's two hashes. */
export type ChainedAuditEntry = AuditEntryContent & { prev_hash: string; hash: string };

/**
 * SHA-256 (lowercase hex) over the UTF-8 bytes of the previous entry's hash (64 hex characters, or
 * genesisHash) followed directly by the entry's canonical JSON. docs/audit-trail.md repeats this
 * for offline verification; the two must not drift. Pure JavaScript, so the browser and the
 * `covenant verify-audit` command compute exactly what the server stored.
 */
export function hashAuditEntry(prevHash: string, entry: AuditEntryContent): string {
  const content = {
    deal_id: entry.deal_id,
    seq: entry.seq,
    actor_id: entry.actor_id,
    action: entry.action,
    // The payload came from JSON (jsonb, an export file or the caller's own canonical values).
    payload: entry.payload as CanonicalValue,
    created_at: entry.created_at,
  };
  return bytesToHex(sha256(utf8ToBytes(prevHash + canonicalJson(content))));
}

/** Why an entry does not continue the chain. */
export type AuditEntryProblem =
  | 'seq_out_of_order'
  | 'prev_hash_mismatch'
  | 'hash_mismatch'
  | 'payload_not_canonical';

/** What each problem means, in words a person checking an export can act on. */
export const auditEntryProblemText: Record<AuditEntryProblem, string> = {
  seq_out_of_order: 'its seq does not follow the previous entry (an entry is missing or out of order)',
  prev_hash_mismatch: 'its prev_hash is not the previous entry’s hash',
  hash_mismatch: 'its hash does not match its content (the entry was changed)',
  payload_not_canonical: 'its payload is not canonical JSON (a fraction or a value JSON cannot carry)',
};

/**
 * Checks the entry at `index` (0-based) of a deal's chain, given the hash the previous entry had
 * (genesisHash for the first): null when it continues the chain.
 */
export function checkAuditEntry(
  entry: ChainedAuditEntry,
  index: number,
  expectedPrevHash: string,
): AuditEntryProblem | null {
  if (entry.seq !== index + 1) return 'seq_out_of_order';
  if (entry.prev_hash !== expectedPrevHash) return 'prev_hash_mismatch';
  let hash: string;
  try {
    hash = hashAuditEntry(entry.prev_hash, entry);
  } catch {
    return 'payload_not_canonical';
  }
  return entry.hash === hash ? null : 'hash_mismatch';
}

/**
 * The seq of the first entry that does not continue the chain (a gap in seq, a prev_hash that is not
 * the previous hash, a hash that is not recomputed, or a payload that is not canonical JSON), or null
 * when the whole chain holds. `entries` are one deal's, ordered by seq.
 */
export function findBrokenAuditEntry(entries: ReadonlyArray<ChainedAuditEntry>): number | null {
  let expectedPrev = genesisHash;
  for (const [index, entry] of entries.entries()) {
    if (checkAuditEntry(entry, index, expectedPrev) !== null) return entry.seq;
    expectedPrev = entry.hash;
  }
  return null;
}

/** The format tag of a deal's audit export file; a later, different layout gets a new number. */
export const dealAuditExportFormat = 'covenant-deal-audit/1' as const;

/** `GET /api/v1/deals/{id}/audit/export`: the file a party keeps and verifies offline. */
export const dealAuditExportSchema = z.object({
  format: z.literal(dealAuditExportFormat),
  deal_id: z.uuid(),
  exported_at: z.string().describe('When the server wrote the file (ISO-8601, UTC)'),
  entries: dealAuditTrailSchema.shape.entries,
});

export type DealAuditExport = z.infer<typeof dealAuditExportSchema>;
