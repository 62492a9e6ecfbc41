import type { DealWithHistory } from '@covenant/domain';

/** The deal's audit trail: verification state and the JSON export a party can check offline (being built). */
export function AuditPanel(_props: { deal: DealWithHistory; viewerId: string | undefined }) {
  return null;
}
