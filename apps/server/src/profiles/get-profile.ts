import { type Db, schema } from '@covenant/db';
import { AppError, tierLimitUsd } from '@covenant/domain';
import { eq } from 'drizzle-orm';

/** `GET /api/v1/user/profile`: the caller's profile as the public API shows it. */
export interface ProfileView {
  id: string;
  email: string;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  verification_status: schema.VerificationStatus;
  trading_tier: schema.TradingTier;
  kyc_completed: boolean;
  /** Whole US dollars per transaction; null until KYC is complete. */
  tier_limit_usd: string | null;
  roles: schema.UserRole[];
  /** Not suggested to other traders as a counterparty. */
  matching_opt_out: boolean;
}

export async function getProfile(
  db: Db,
  caller: { userId: string; roles: schema.UserRole[] },
): Promise<ProfileView> {
  const [row] = await db
    .select({ profile: schema.profiles, email: schema.users.email, metadata: schema.users.userMetadata })
    .from(schema.profiles)
    .innerJoin(schema.users, eq(schema.users.id, schema.profiles.id))
    .where(eq(schema.profiles.id, caller.userId));
  if (!row) throw new AppError('NOT_FOUND', 'Profile not found');
  const { profile } = row;
  const limit = profile.kycCompleted
    ? tierLimitUsd(profile.tradingTier, profile.tierLimitUsd === null ? null : BigInt(profile.tierLimitUsd))
    : null;
  return {
    id: profile.id,
    email: row.email,
    username: profile.username,
    first_name: textOrNull(row.metadata.first_name),
    last_name: textOrNull(row.metadata.last_name),
    verification_status: profile.verificationStatus,
    trading_tier: profile.tradingTier,
    kyc_completed: profile.kycCompleted,
    tier_limit_usd: limit === null ? null : limit.toString(),
    roles: caller.roles,
    matching_opt_out: profile.matchingOptOut,
  };
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
