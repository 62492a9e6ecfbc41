import { type Db, schema } from '@covenant/db';
import type { StaffKycSubmission } from '@covenant/domain';
import { asc, desc, eq, type SQL } from 'drizzle-orm';
import { presentKycSubmissions } from './present-kyc-submission.js';

/**
 * The compliance queue: submissions of every trader with who sent them. Pending ones come oldest
 * first (first come, first reviewed); decided ones newest first.
 */
export async function listKycSubmissions(
  db: Db,
  query: { status: schema.KycSubmissionStatus | undefined; limit: number },
): Promise<StaffKycSubmission[]> {
  return findStaffKycSubmissions(db, {
    where: query.status ? eq(schema.kycSubmissions.status, query.status) : undefined,
    oldestFirst: query.status === 'pending',
    limit: query.limit,
  });
}

/** Submissions joined with their owners, for the staff views. */
export async function findStaffKycSubmissions(
  db: Db,
  query: { where: SQL | undefined; oldestFirst: boolean; limit: number },
): Promise<StaffKycSubmission[]> {
  const order = query.oldestFirst ? asc : desc;
  const rows = await db
    .select({
      submission: schema.kycSubmissions,
      email: schema.users.email,
      username: schema.profiles.username,
    })
    .from(schema.kycSubmissions)
    .innerJoin(schema.users, eq(schema.users.id, schema.kycSubmissions.userId))
    .leftJoin(schema.profiles, eq(schema.profiles.id, schema.kycSubmissions.userId))
    .where(query.where)
    .orderBy(order(schema.kycSubmissions.submittedAt), order(schema.kycSubmissions.id))
    .limit(query.limit);
  const views = await presentKycSubmissions(
    db,
    rows.map((row) => row.submission),
  );
  return views.map((view, index) => ({
    ...view,
    user: { id: rows[index]!.submission.userId, email: rows[index]!.email, username: rows[index]!.username },
  }));
}
