/** How urgent a support request is; the contact form's default is `normal` (spec §3). */
export const supportPriorities = ['low', 'normal', 'high', 'urgent'] as const;
export type SupportPriority = (typeof supportPriorities)[number];

export const supportPriorityLabels: Record<SupportPriority, string> = {
  low: 'Low',
  normal: 'Normal',
  high: 'High',
  urgent: 'Urgent',
};

/** The response target per priority that we promise the sender (spec §9). */
export const responseTargetHours: Record<SupportPriority, number> = {
  urgent: 1,
  high: 2,
  normal: 4,
  low: 24,
};

/** "under 1 hour", "under 24 hours": the wording used on the contact page and in confirmations. */
export function describeResponseTarget(priority: SupportPriority): string {
  const hours = responseTargetHours[priority];
  return `under ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}
