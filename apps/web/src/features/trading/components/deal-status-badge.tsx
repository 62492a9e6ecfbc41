import { Badge, type BadgeTone } from './badge.js';

type StatusLook = { label: string; tone: BadgeTone };

const draft: StatusLook = { label: 'Draft', tone: 'neutral' };

// The spec's labels and styles per status (§4).
const statuses = new Map<string, StatusLook>([
  ['draft', draft],
  ['cis_submitted', { label: 'CIS Submitted', tone: 'neutral' }],
  ['terms_agreed', { label: 'Terms Agreed', tone: 'neutral' }],
  ['escrow_funded', { label: 'Escrow Funded', tone: 'neutral' }],
  ['completed', { label: 'Completed', tone: 'success' }],
  ['cancelled', { label: 'Cancelled', tone: 'destructive' }],
  ['disputed', { label: 'Disputed', tone: 'destructive' }],
]);

// A status this app does not know yet (a newer server) reads as Draft, as the spec says.
export function describeDealStatus(status: string): StatusLook {
  return statuses.get(status) ?? draft;
}

export function DealStatusBadge({ status }: { status: string }) {
  const { label, tone } = describeDealStatus(status);
  return (
    <Badge tone={tone} data-tone={tone}>
      {label}
    </Badge>
  );
}
