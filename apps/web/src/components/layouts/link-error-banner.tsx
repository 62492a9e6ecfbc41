import { lazy, Suspense } from 'react';
import { useAuth } from '@/lib/auth.js';

// Rarely shown, so its markup loads only when there is a refused link to explain.
const LinkErrorNotice = lazy(() =>
  import('./link-error-notice.js').then((module) => ({ default: module.LinkErrorNotice })),
);

// Shown when the visitor arrived through a link, or back from Google, with a refusal of the server.
export function LinkErrorBanner() {
  const { linkError, dismissLinkError } = useAuth();
  if (!linkError) return null;
  return (
    <Suspense fallback={null}>
      <LinkErrorNotice message={linkError.message} code={linkError.code} onDismiss={dismissLinkError} />
    </Suspense>
  );
}
