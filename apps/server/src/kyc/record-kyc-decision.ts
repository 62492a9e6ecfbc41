import { type Db, schema } from '@covenant/db';
import { AppError } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import type { KycSubmissionRow } from './present-kyc-submission.js';

type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Marks a pending submission decided, inside the caller's transaction. The status condition makes
 * two reviewers deciding at once safe: only one update finds the submission still pending.
 */
export async function recordKycDecision(
  tx: Transaction,
  input: {
    submissionId: string;
    reviewerId: string;
    reviewedAt: Date;
    decision: Pick<KycSubmissionRow, 'status' | 'approvedTier' | 'limitUsd' | 'rejectionReason'>;
  },
): Promise<KycSubmissionRow> {
  const [existing] = await tx
    .select({ userId: schema.kycSubmissions.userId })
    .from(schema.kycSubmissions)
    .where(eq(schema.kycSubmissions.id, input.submissionId));
  if (!existing) throw new AppError('NOT_FOUND', 'KYC submission not found');
  // Four eyes: a compliance officer's own verification is decided by a colleague.
  if (existing.userId === input.reviewerId) {
    throw new AppError('FORBIDDEN', 'You cannot review your own verification request');
  }
  const [decided] = await tx
    .update(schema.kycSubmissions)
    .set({ ...input.decision, reviewedBy: input.reviewerId, reviewedAt: input.reviewedAt })
    .where(and(eq(schema.kycSubmissions.id, input.submissionId), eq(schema.kycSubmissions.status, 'pending')))
    .returning();
  if (!decided) {
    throw new AppError('CONFLICT', 'This submission has already been reviewed', {
      reason: 'kyc_already_reviewed',
    });
  }
  return decided;
}

/** The e-mail address of a submission's owner. */
export async function findApplicantEmail(tx: Transaction, userId: string): Promise<string> {
  const [user] = await tx
    .select({ email: schema.users.email })
    .from(schema.users)
    .where(eq(schema.users.id, userId));
  return user!.email;
}
