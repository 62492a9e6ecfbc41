import { readFile } from 'node:fs/promises';
import {
  auditEntryProblemText,
  checkAuditEntry,
  dealAuditExportFormat,
  dealAuditTrailSchema,
  genesisHash,
} from '@covenant/domain';
import { z } from 'zod';
import type { CliOutput } from './run-cli.js';

/** The export file, or the answer of `GET /deals/{id}/audit` saved as it is: both carry deal_id and entries. */
const auditFileSchema = z.object({
  format: z.literal(dealAuditExportFormat).optional(),
  deal_id: z.uuid(),
  entries: dealAuditTrailSchema.shape.entries,
});

/**
 * Prints `seq action ok` for each entry of the chain, then `verified: N entries, chain intact`
 * (exit code 0), or stops at the first entry that does not verify and says why (exit code 1).
 */
export async function verifyAuditFile(path: string, output: CliOutput): Promise<number> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    output.err(`Cannot read ${path}: ${(error as Error).message}`);
    return 1;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    output.err(`${path} is not JSON`);
    return 1;
  }
  const parsed = auditFileSchema.safeParse(json);
  if (!parsed.success) {
    output.err(`${path} is not a Covenant deal audit export (${dealAuditExportFormat}):`);
    output.err(z.prettifyError(parsed.error));
    return 1;
  }
  const { deal_id: dealId, entries } = parsed.data;
  output.out(`deal ${dealId}`);
  let expectedPrev = genesisHash;
  for (const [index, entry] of entries.entries()) {
    const problem = checkAuditEntry({ ...entry, deal_id: dealId }, index, expectedPrev);
    if (problem) {
      output.out(`${entry.seq} ${entry.action} BROKEN`);
      output.err(`broken at seq ${entry.seq} (${entry.action}): ${auditEntryProblemText[problem]}`);
      return 1;
    }
    output.out(`${entry.seq} ${entry.action} ok`);
    expectedPrev = entry.hash;
  }
  output.out(`verified: ${entries.length} entries, chain intact`);
  if (entries.length > 0) output.out(`last hash: ${expectedPrev}`);
  return 0;
}
