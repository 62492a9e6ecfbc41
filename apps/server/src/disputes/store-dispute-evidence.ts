import { createHash } from 'node:crypto';
import { AppError, disputeEvidenceRules } from '@covenant/domain';
import { detectContentType } from '../files/detect-content-type.js';
import { discardStoredFiles } from '../files/discard-encrypted-file.js';
import { type StoredFile, storeEncryptedFile } from '../files/store-encrypted-file.js';
import type { DisputeDeps } from './dispute-deps.js';

export interface EvidenceUpload {
  filename: string;
  content: Buffer;
}

export interface StoredEvidence {
  file: StoredFile;
  /** SHA-256 of the plaintext, recorded in the audit trail so a party can show which file they sent. */
  sha256: string;
}

/** Refuses anything that is not a PDF, PNG or JPEG by its first bytes, or more files than allowed. */
export function checkEvidence(uploads: readonly EvidenceUpload[]) {
  if (uploads.length > disputeEvidenceRules.maxFiles) {
    throw new AppError('VALIDATION_FAILED', 'Attach at most 5 evidence files', {
      issues: [{ path: '/evidence', message: 'Attach at most 5 evidence files' }],
    });
  }
  return uploads.map((upload, index) => {
    const contentType = detectContentType(upload.content);
    if (!contentType) {
      throw new AppError('VALIDATION_FAILED', 'Evidence must be PDF, PNG or JPEG files', {
        issues: [
          { path: `/evidence/${index}`, message: `${upload.filename} is not a PDF, PNG or JPEG file` },
        ],
      });
    }
    return { ...upload, contentType };
  });
}

/**
 * Encrypts and stores evidence before the transaction that records the dispute, so the deal's row is
 * not held locked while files are written. The caller discards them if that transaction fails.
 */
export async function storeDisputeEvidence(
  deps: Pick<DisputeDeps, 'db' | 'fileStore'>,
  ownerId: string,
  uploads: ReturnType<typeof checkEvidence>,
): Promise<StoredEvidence[]> {
  const stored: StoredEvidence[] = [];
  try {
    for (const upload of uploads) {
      const file = await storeEncryptedFile(deps.fileStore, deps.db, {
        ownerId,
        purpose: 'dispute_evidence',
        filename: upload.filename,
        contentType: upload.contentType,
        content: upload.content,
      });
      stored.push({ file, sha256: createHash('sha256').update(upload.content).digest('hex') });
    }
    return stored;
  } catch (error) {
    await discardDisputeEvidence(deps, stored);
    throw error;
  }
}

/** Removes evidence whose dispute was never recorded: the rows, then the ciphertext. */
export async function discardDisputeEvidence(
  deps: Pick<DisputeDeps, 'db' | 'fileStore'>,
  stored: readonly StoredEvidence[],
): Promise<void> {
  await discardStoredFiles(
    deps.fileStore,
    deps.db,
    stored.map(({ file }) => file.id),
  );
}
