import type { KycSubjectType, TradingTier } from '@covenant/domain';

export type { KycStatus } from '@/components/kyc-status-badge.js';

import type { KycStatus } from '@/components/kyc-status-badge.js';

export type KycDocument = { id: string; filename: string; content_type: string; size: number };

/** A verification request as `/api/v1/kyc` answers it. */
export type KycSubmission = {
  id: string;
  status: KycStatus;
  subject_type: KycSubjectType;
  legal_name: string;
  country: string;
  date_of_birth: string | null;
  registration_number: string | null;
  address: string;
  requested_tier: TradingTier;
  approved_tier: TradingTier | null;
  limit_usd: string | null;
  rejection_reason: string | null;
  submitted_at: string;
  reviewed_at: string | null;
  documents: KycDocument[];
};
