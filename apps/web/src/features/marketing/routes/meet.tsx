import { ContentPage } from '@/components/layouts/content-page.js';

export function MeetRoute() {
  return (
    <ContentPage
      title="Covenant Meet"
      intro="Covenant Meet arranges an optional in-person meeting for a trade, with travel paid from escrow once both parties approve it."
    />
  );
}
