import { schema } from '@covenant/db';
import { AppError, type CisForm, type CisSheet } from '@covenant/domain';
import { detectContentType } from '../files/detect-content-type.js';
import { discardEncryptedFile } from '../files/discard-encrypted-file.js';
import { type StoredFile, storeEncryptedFile } from '../files/store-encrypted-file.js';
import type { CisDeps } from './cis-deps.js';

export interface CisPdfUpload {
  filename: string;
  content: Buffer;
}

/**
 * A trader stores a Customer Information Sheet: the form as an encrypted JSON file and the optional
 * signed PDF as another (each with its own data key); the sheet's row only links them to the owner.
 */
export async function createCisSheet(
  deps: Pick<CisDeps, 'db' | 'fileStore'>,
  ownerId: string,
  form: CisForm,
  pdf: CisPdfUpload | null,
): Promise<CisSheet> {
  if (pdf && detectContentType(pdf.content) !== 'application/pdf') {
    throw new AppError('VALIDATION_FAILED', 'The signed CIS must be a PDF file', {
      issues: [{ path: '/file', message: `${pdf.filename} is not a PDF file` }],
    });
  }
  const stored: StoredFile[] = [];
  try {
    const row = await deps.db.transaction(async (tx) => {
      const formFile = await storeEncryptedFile(deps.fileStore, tx, {
        ownerId,
        purpose: 'cis_form',
        filename: 'cis-form.json',
        contentType: 'application/json',
        content: Buffer.from(JSON.stringify(form)),
      });
      stored.push(formFile);
      let pdfFile: StoredFile | null = null;
      if (pdf) {
        pdfFile = await storeEncryptedFile(deps.fileStore, tx, {
          ownerId,
          purpose: 'cis_pdf',
          filename: pdf.filename,
          contentType: 'application/pdf',
          content: pdf.content,
        });
        stored.push(pdfFile);
      }
      const [sheet] = await tx
        .insert(schema.cisSheets)
        .values({ ownerId, formFileId: formFile.id, pdfFileId: pdfFile?.id ?? null })
        .returning();
      return sheet!;
    });
    return { id: row.id, ...form, has_pdf: row.pdfFileId !== null, created_at: row.createdAt.toISOString() };
  } catch (error) {
    // The rows were rolled back; their ciphertext must not outlive them.
    await Promise.all(stored.map((file) => discardEncryptedFile(deps.fileStore, file.id)));
    throw error;
  }
}
