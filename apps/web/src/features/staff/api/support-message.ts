import type { SupportPriority } from '@covenant/domain';

// The staff inbox's shapes, as /api/v1/staff/support answers them.
export const supportStatuses = ['open', 'in_progress', 'resolved', 'closed'] as const;
export type SupportStatus = (typeof supportStatuses)[number];

export const supportStatusLabels: Record<SupportStatus, string> = {
  open: 'Open',
  in_progress: 'In Progress',
  resolved: 'Resolved',
  closed: 'Closed',
};

export type SupportKind = 'contact' | 'ticket';

export type SupportMessageSummary = {
  id: string;
  reference: string;
  kind: SupportKind;
  status: SupportStatus;
  priority: SupportPriority;
  email: string;
  name: string | null;
  phone: string | null;
  topic: string | null;
  category: string | null;
  title: string;
  preview: string;
  user_id: string | null;
  created_at: string;
  updated_at: string;
};

export type SupportReply = { id: string; author_email: string; body: string; created_at: string };

export type SupportMessageDetail = SupportMessageSummary & { body: string; replies: SupportReply[] };
