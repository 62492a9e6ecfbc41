import type { DealWithHistory } from '@covenant/domain';

/** Terms versions, counter-proposals, acceptance and each party's addresses (being built). */
export function TermsPanel(_props: { deal: DealWithHistory; viewerId: string | undefined }) {
  return null;
}
