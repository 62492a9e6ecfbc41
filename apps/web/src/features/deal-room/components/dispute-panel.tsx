import type { DealWithHistory } from '@covenant/domain';

/** Opening a dispute with evidence, and its outcome (being built). */
export function DisputePanel(_props: { deal: DealWithHistory; viewerId: string | undefined }) {
  return null;
}
