import type { DealWithHistory } from '@covenant/domain';

/** Messages between the parties, and the mediator during a dispute (being built). */
export function MessagesPanel(_props: { deal: DealWithHistory; viewerId: string | undefined }) {
  return null;
}
