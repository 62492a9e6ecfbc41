import { schema } from '@covenant/db';
import type { KycSubmission } from '@covenant/domain';
import { and, eq } from 'drizzle-orm';
import { renderKycRejectedEmail } from '../email/templates/kyc-rejected.js';
import type { KycDeps } from './kyc-deps.js';
import { presentKycSubmissions } from './present-kyc-submission.js';
import { findApplicantEmail, recordKycDecision } from './record-kyc-decision.js';

/**
 * Compliance rejects a submission with a reason the trader reads in the e-mail. A first-time
 * applicant's profile becomes "rejected"; a trader verified earlier keeps that verification and tier.
 */
export async function rejectKycSubmission(
  deps: KycDeps,
  input: { submissionId: string; reviewerId: string; reason: string },
): Promise<KycSubmission> {
  const reviewedAt = deps.now();
  const { submission, email } = await deps.db.transaction(async (tx) => {
    const submission = await recordKycDecision(tx, {
      submissionId: input.submissionId,
      reviewerId: input.reviewerId,
      reviewedAt,
      decision: { status: 'rejected', approvedTier: null, limitUsd: null, rejectionReason: input.reason },
    });
    await tx
      .update(schema.profiles)
      .set({ verificationStatus: 'rejected', updatedAt: reviewedAt })
      .where(and(eq(schema.profiles.id, submission.userId), eq(schema.profiles.kycCompleted, false)));
    return { submission, email: await findApplicantEmail(tx, submission.userId) };
  });

  try {
    await deps.mailer.send(
      renderKycRejectedEmail({ to: email, reason: input.reason, kycUrl: `${deps.publicUrl}/kyc` }),
    );
  } catch (error) {
    deps.log.error({ err: error, submissionId: submission.id }, 'KYC rejection e-mail not sent');
  }
  const [view] = await presentKycSubmissions(deps.db, [submission]);
  return view!;
}
