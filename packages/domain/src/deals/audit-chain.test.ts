import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type AuditEntryContent,
  checkAuditEntry,
  dealAuditExportFormat,
  dealAuditExportSchema,
  findBrokenAuditEntry,
  genesisHash,
  hashAuditEntry,
} from './audit-chain.js';

const dealId = '6a1c1f0e-8a53-4d7b-9f7e-0d6f2b1c0a11';

function chain(payloads: Array<Record<string, unknown>>) {
  const entries: Array<AuditEntryContent & { prev_hash: string; hash: string }> = [];
  let prev = genesisHash;
  for (const [index, payload] of payloads.entries()) {
    const content = {
      deal_id: dealId,
      seq: index + 1,
      actor_id: null,
      action: 'noted',
      payload,
      created_at: '2026-01-01T00:00:00.000Z',
    };
    const hash = hashAuditEntry(prev, content);
    entries.push({ ...content, prev_hash: prev, hash });
    prev = hash;
  }
  return entries;
}

describe('audit chain', () => {
  it('hashes the previous hash followed by the canonical JSON of the entry', () => {
    const [first] = chain([{ n: 1 }]);
    expect(first!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashAuditEntry(genesisHash, { ...first!, payload: { n: 1 } })).toBe(first!.hash);
    expect(hashAuditEntry(genesisHash, { ...first!, payload: { n: 2 } })).not.toBe(first!.hash);
  });

  it('verifies an intact chain and names the first entry that breaks it', () => {
    const entries = chain([{ a: 'x' }, { b: 'y' }, { c: 'z' }]);
    expect(findBrokenAuditEntry(entries)).toBeNull();
    expect(findBrokenAuditEntry(entries.map((e) => (e.seq === 2 ? { ...e, payload: { b: 'w' } } : e)))).toBe(
      2,
    );
    expect(findBrokenAuditEntry([entries[0]!, entries[2]!])).toBe(3);
    expect(findBrokenAuditEntry(entries.map((e) => (e.seq === 3 ? { ...e, payload: { c: 1.5 } } : e)))).toBe(
      3,
    );
    // Rehashing an edited entry still breaks at the next one, whose prev_hash no longer matches.
    const edited = { ...entries[1]!, payload: { b: 'w' } };
    edited.hash = hashAuditEntry(edited.prev_hash, edited);
    expect(findBrokenAuditEntry([entries[0]!, edited, entries[2]!])).toBe(3);
  });
});

describe('hashAuditEntry', () => {
  it('equals SHA-256 of the previous hash and the canonical JSON, as node:crypto computes it', () => {
    const content = {
      deal_id: dealId,
      seq: 1,
      actor_id: null,
      action: 'created',
      payload: { amount: '100000000', ä: 'ß' },
      created_at: '2026-01-01T00:00:00.000Z',
    };
    const expected = createHash('sha256')
      .update(
        `${genesisHash}{"action":"created","actor_id":null,"created_at":"2026-01-01T00:00:00.000Z","deal_id":"${dealId}","payload":{"amount":"100000000","ä":"ß"},"seq":1}`,
      )
      .digest('hex');
    expect(hashAuditEntry(genesisHash, content)).toBe(expected);
  });
});

describe('dealAuditExportSchema', () => {
  it('accepts the export format and refuses another', () => {
    const file = {
      format: dealAuditExportFormat,
      deal_id: dealId,
      exported_at: '2026-01-01T00:00:00.000Z',
      entries: [],
    };
    expect(dealAuditExportSchema.safeParse(file).success).toBe(true);
    expect(dealAuditExportSchema.safeParse({ ...file, format: 'covenant-deal-audit/2' }).success).toBe(false);
  });
});

describe('checkAuditEntry', () => {
  it('names why an entry does not continue the chain', () => {
    const entries = chain([{ a: 1 }, { b: 2 }]);
    const [first, second] = [entries[0]!, entries[1]!];
    expect(checkAuditEntry(first, 0, genesisHash)).toBeNull();
    expect(checkAuditEntry(second, 1, first.hash)).toBeNull();
    expect(checkAuditEntry(second, 0, genesisHash)).toBe('seq_out_of_order');
    expect(checkAuditEntry(second, 1, genesisHash)).toBe('prev_hash_mismatch');
    expect(checkAuditEntry({ ...second, action: 'edited' }, 1, first.hash)).toBe('hash_mismatch');
    expect(checkAuditEntry({ ...second, payload: { b: 0.5 } }, 1, first.hash)).toBe('payload_not_canonical');
  });
});
