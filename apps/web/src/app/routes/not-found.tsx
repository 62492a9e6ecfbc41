import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { PageTitle } from '@/components/page-title.js';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';

export function NotFoundRoute() {
  const { pathname } = useLocation();

  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', pathname);
  }, [pathname]);

  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 py-16 text-center">
      <PageTitle title="Page not found" />
      <h1 className="font-bold text-6xl text-primary tracking-tight">404</h1>
      <p className="mt-4 text-muted text-xl">Oops! Page not found</p>
      <Button asChild variant="outline" className="mt-8">
        <Link to={paths.home}>Return to Home</Link>
      </Button>
    </div>
  );
}
