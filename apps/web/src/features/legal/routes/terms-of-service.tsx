import { ContentPage } from '@/components/layouts/content-page.js';

export function TermsOfServiceRoute() {
  return (
    <ContentPage
      title="Terms of Service"
      intro="The terms that govern the use of Covenant. You must be at least 18 years old to use the service."
    />
  );
}
