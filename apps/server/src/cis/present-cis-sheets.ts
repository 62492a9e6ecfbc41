import type { schema } from '@covenant/db';
import { type CisSheet, cisFormSchema } from '@covenant/domain';
import { readEncryptedFile } from '../files/read-encrypted-file.js';
import type { CisDeps } from './cis-deps.js';

export type CisSheetRow = typeof schema.cisSheets.$inferSelect;

/**
 * Sheets as the API shows them: each form decrypted from its file. The form was validated when it
 * was stored; parsing it again keeps a file that no longer fits the schema from leaking out unchecked.
 */
export async function presentCisSheets(
  deps: Pick<CisDeps, 'db' | 'fileStore'>,
  rows: CisSheetRow[],
): Promise<CisSheet[]> {
  return Promise.all(
    rows.map(async (row) => {
      const { content } = await readEncryptedFile(deps.fileStore, deps.db, row.formFileId);
      const form = cisFormSchema.parse(JSON.parse(content.toString('utf8')));
      return {
        id: row.id,
        ...form,
        has_pdf: row.pdfFileId !== null,
        created_at: row.createdAt.toISOString(),
      };
    }),
  );
}
