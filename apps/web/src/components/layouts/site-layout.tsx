import { Outlet, useLocation } from 'react-router';
import { LinkErrorBanner } from '@/components/layouts/link-error-banner.js';
import { SiteFooter } from '@/components/layouts/site-footer.js';
import { SiteHeader } from '@/components/layouts/site-header.js';
import { paths } from '@/config/paths.js';

export function SiteLayout() {
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-surface-raised focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <SiteHeader />
      {/* The reset page explains a failed recovery link itself, in place of its form. */}
      {pathname !== paths.resetPassword && <LinkErrorBanner />}
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
