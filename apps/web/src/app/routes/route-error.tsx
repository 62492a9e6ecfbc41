import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { PageTitle } from '@/components/page-title.js';
import { Button } from '@/components/ui/button.js';

// Replaces a page that failed to load or render (for instance after a deploy removed its old chunk).
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <div
      role="alert"
      className="flex min-h-[60vh] flex-col items-center justify-center px-4 py-16 text-center"
    >
      <PageTitle title="Something went wrong" />
      <h1 className="font-semibold text-2xl">Something went wrong</h1>
      <p className="mt-3 text-muted">This page could not be displayed. Reloading usually fixes it.</p>
      <Button className="mt-8" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </div>
  );
}
