import { type Db, schema } from '@covenant/db';
import type { KycSubmission } from '@covenant/domain';
import { desc, eq } from 'drizzle-orm';
import { presentKycSubmissions } from './present-kyc-submission.js';

/** `GET /api/v1/kyc`: the caller's own submissions, newest first. */
export async function listOwnKycSubmissions(db: Db, userId: string): Promise<KycSubmission[]> {
  const rows = await db
    .select()
    .from(schema.kycSubmissions)
    .where(eq(schema.kycSubmissions.userId, userId))
    .orderBy(desc(schema.kycSubmissions.submittedAt), desc(schema.kycSubmissions.id));
  return presentKycSubmissions(db, rows);
}
