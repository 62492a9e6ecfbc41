import type { KycSubjectType, TradingTier } from '@covenant/domain';
import type { KycStatus } from '@/components/kyc-status-badge.js';

export type StaffKycDocument = { id: string; filename: string; content_type: string; size: number };

/** A verification request with its trader, as `/api/v1/staff/kyc` answers it. */
export type StaffKycSubmission = {
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
  documents: StaffKycDocument[];
  user: { id: string; email: string; username: string | null };
};
