import { type Db, schema } from '@covenant/db';
import { AppError, type StaffKycSubmission } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { findStaffKycSubmissions } from './list-kyc-submissions.js';

/** One submission with its owner, for compliance staff. */
export async function getKycSubmission(db: Db, id: string): Promise<StaffKycSubmission> {
  const [view] = await findStaffKycSubmissions(db, {
    where: eq(schema.kycSubmissions.id, id),
    oldestFirst: false,
    limit: 1,
  });
  if (!view) throw new AppError('NOT_FOUND', 'KYC submission not found');
  return view;
}
