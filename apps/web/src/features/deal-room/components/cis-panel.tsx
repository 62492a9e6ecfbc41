import type { DealWithHistory } from '@covenant/domain';

/** Each party's CIS on the deal, with the counterparty's review (being built). */
export function CisPanel(_props: { deal: DealWithHistory; viewerId: string | undefined }) {
  return null;
}
