import { type Db, schema } from '@covenant/db';
import type { KycSubmission } from '@covenant/domain';
import { asc, eq, inArray } from 'drizzle-orm';

export type KycSubmissionRow = typeof schema.kycSubmissions.$inferSelect;

/** Presents submissions with their documents (one query for all documents), keeping their order. */
export async function presentKycSubmissions(db: Db, rows: KycSubmissionRow[]): Promise<KycSubmission[]> {
  if (rows.length === 0) return [];
  const documents = await db
    .select({
      submissionId: schema.kycDocuments.submissionId,
      id: schema.storedFiles.id,
      filename: schema.storedFiles.filename,
      contentType: schema.storedFiles.contentType,
      size: schema.storedFiles.size,
    })
    .from(schema.kycDocuments)
    .innerJoin(schema.storedFiles, eq(schema.storedFiles.id, schema.kycDocuments.fileId))
    .where(
      inArray(
        schema.kycDocuments.submissionId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(schema.kycDocuments.position));
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    subject_type: row.subjectType,
    legal_name: row.legalName,
    country: row.country,
    date_of_birth: row.dateOfBirth,
    place_of_birth_city: row.placeOfBirthCity,
    place_of_birth_country: row.placeOfBirthCountry,
    registration_number: row.registrationNumber,
    registration_authority: row.registrationAuthority,
    address: row.address,
    town_name: row.townName,
    requested_tier: row.requestedTier,
    approved_tier: row.approvedTier,
    limit_usd: row.limitUsd,
    rejection_reason: row.rejectionReason,
    submitted_at: row.submittedAt.toISOString(),
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    documents: documents
      .filter((document) => document.submissionId === row.id)
      .map((document) => ({
        id: document.id,
        filename: document.filename,
        content_type: document.contentType,
        size: document.size,
      })),
  }));
}
