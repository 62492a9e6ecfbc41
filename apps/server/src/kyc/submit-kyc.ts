import { schema } from '@covenant/db';
import { AppError, type KycApplication, type KycSubmission, kycDocumentRules } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { isUniqueViolation } from '../auth/unique-violation.js';
import { detectContentType } from '../files/detect-content-type.js';
import { discardEncryptedFile } from '../files/discard-encrypted-file.js';
import { type StoredFile, storeEncryptedFile } from '../files/store-encrypted-file.js';
import type { KycDeps } from './kyc-deps.js';
import { presentKycSubmissions } from './present-kyc-submission.js';

export interface KycDocumentUpload {
  filename: string;
  content: Buffer;
}

const alreadyPending = () =>
  new AppError('CONFLICT', 'A verification request is already under review', { reason: 'kyc_pending' });

/**
 * A trader asks to be verified: the details and documents are stored (documents encrypted), the
 * submission waits for compliance, and a first-time applicant's profile shows "pending". A trader
 * who is verified already keeps that status (and tier) while a request for another tier is reviewed.
 */
export async function submitKyc(
  deps: Pick<KycDeps, 'db' | 'fileStore'>,
  userId: string,
  application: KycApplication,
  uploads: KycDocumentUpload[],
): Promise<KycSubmission> {
  if (uploads.length < kycDocumentRules.minFiles || uploads.length > kycDocumentRules.maxFiles) {
    throw new AppError('VALIDATION_FAILED', 'Attach between 1 and 5 documents', {
      issues: [{ path: '/documents', message: 'Attach between 1 and 5 documents' }],
    });
  }
  const documents = uploads.map((upload, index) => {
    const contentType = detectContentType(upload.content);
    if (!contentType) {
      throw new AppError('VALIDATION_FAILED', 'Documents must be PDF, PNG or JPEG files', {
        issues: [
          { path: `/documents/${index}`, message: `${upload.filename} is not a PDF, PNG or JPEG file` },
        ],
      });
    }
    return { ...upload, contentType };
  });

  const [pending] = await deps.db
    .select({ id: schema.kycSubmissions.id })
    .from(schema.kycSubmissions)
    .where(and(eq(schema.kycSubmissions.userId, userId), eq(schema.kycSubmissions.status, 'pending')));
  if (pending) throw alreadyPending();

  const stored: StoredFile[] = [];
  try {
    const submission = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(schema.kycSubmissions)
        .values({
          userId,
          subjectType: application.subject_type,
          legalName: application.legal_name,
          country: application.country,
          dateOfBirth: application.date_of_birth,
          placeOfBirthCity: application.place_of_birth_city,
          placeOfBirthCountry: application.place_of_birth_country,
          registrationNumber: application.registration_number,
          registrationAuthority: application.registration_authority,
          address: application.address,
          townName: application.town_name,
          requestedTier: application.requested_tier,
        })
        .returning();
      for (const [position, document] of documents.entries()) {
        const file = await storeEncryptedFile(deps.fileStore, tx, {
          ownerId: userId,
          purpose: 'kyc_document',
          filename: document.filename,
          contentType: document.contentType,
          content: document.content,
        });
        stored.push(file);
        await tx.insert(schema.kycDocuments).values({ submissionId: row!.id, fileId: file.id, position });
      }
      await tx
        .update(schema.profiles)
        .set({ verificationStatus: 'pending', updatedAt: row!.submittedAt })
        .where(and(eq(schema.profiles.id, userId), eq(schema.profiles.kycCompleted, false)));
      return row!;
    });
    const [view] = await presentKycSubmissions(deps.db, [submission]);
    return view!;
  } catch (error) {
    // The rows were rolled back; their ciphertext must not outlive them.
    await Promise.all(stored.map((file) => discardEncryptedFile(deps.fileStore, file.id)));
    if (isUniqueViolation(error, 'kyc_submissions_one_pending_idx')) throw alreadyPending();
    throw error;
  }
}
