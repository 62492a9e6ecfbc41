import { schema } from '@covenant/db';
import { AppError, type KycSubmission, type TradingTier, tierLimitUsd } from '@covenant/domain';
import { eq } from 'drizzle-orm';
import { renderKycApprovedEmail } from '../email/templates/kyc-approved.js';
import type { KycDeps } from './kyc-deps.js';
import { presentKycSubmissions } from './present-kyc-submission.js';
import { findApplicantEmail, recordKycDecision } from './record-kyc-decision.js';

/**
 * Compliance approves a submission with a tier (and, for institutional, the per-transaction limit
 * in whole dollars): the trader's profile becomes verified and KYC-complete at that tier, and the
 * trader is told by e-mail.
 */
export async function approveKycSubmission(
  deps: KycDeps,
  input: { submissionId: string; reviewerId: string; tier: TradingTier; limitUsd: bigint | undefined },
): Promise<KycSubmission> {
  if (input.tier === 'institutional' && input.limitUsd === undefined) {
    throw new AppError('VALIDATION_FAILED', 'The institutional tier needs a limit', {
      issues: [{ path: '/limit_usd', message: 'Set the per-transaction limit for the institutional tier' }],
    });
  }
  if (input.tier !== 'institutional' && input.limitUsd !== undefined) {
    throw new AppError('VALIDATION_FAILED', 'Only the institutional tier takes a limit', {
      issues: [{ path: '/limit_usd', message: 'The basic and enhanced tiers have fixed limits' }],
    });
  }
  const institutionalLimit = input.limitUsd ?? null;
  const limit = tierLimitUsd(input.tier, institutionalLimit)!;
  const reviewedAt = deps.now();
  const { submission, email } = await deps.db.transaction(async (tx) => {
    const submission = await recordKycDecision(tx, {
      submissionId: input.submissionId,
      reviewerId: input.reviewerId,
      reviewedAt,
      decision: {
        status: 'approved',
        approvedTier: input.tier,
        limitUsd: limit.toString(),
        rejectionReason: null,
      },
    });
    await tx
      .update(schema.profiles)
      .set({
        verificationStatus: 'verified',
        kycCompleted: true,
        tradingTier: input.tier,
        tierLimitUsd: institutionalLimit === null ? null : institutionalLimit.toString(),
        updatedAt: reviewedAt,
      })
      .where(eq(schema.profiles.id, submission.userId));
    return { submission, email: await findApplicantEmail(tx, submission.userId) };
  });

  try {
    await deps.mailer.send(
      renderKycApprovedEmail({
        to: email,
        tier: input.tier,
        limitUsd: limit,
        tradingUrl: `${deps.publicUrl}/trading`,
      }),
    );
  } catch (error) {
    deps.log.error({ err: error, submissionId: submission.id }, 'KYC approval e-mail not sent');
  }
  const [view] = await presentKycSubmissions(deps.db, [submission]);
  return view!;
}
