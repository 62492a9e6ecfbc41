import { Menu, X } from 'lucide-react';
import { useState } from 'react';
import { NavLink } from 'react-router';
import { AccountActions } from '@/components/layouts/account-actions.js';
import { BrandLink } from '@/components/layouts/brand-link.js';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { cn } from '@/lib/cn.js';

const navigation = [
  { to: paths.features, label: 'Features' },
  { to: paths.security, label: 'Security' },
  { to: paths.trading, label: 'Trading' },
];

function NavigationLinks({ onNavigate, className }: { onNavigate?: () => void; className?: string }) {
  return (
    <ul className={className}>
      {navigation.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            onClick={onNavigate}
            className={({ isActive }) =>
              cn(
                'block rounded-md px-3 py-2 font-medium text-sm transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
                isActive ? 'text-foreground' : 'text-muted',
              )
            }
          >
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);

  // Opaque rather than a translucent backdrop blur, which the browser repaints under the header on
  // every scroll, and first, before the page shows, where it paints in software.
  return (
    <header className="sticky top-0 z-40 border-border border-b bg-background">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <BrandLink onClick={closeMenu} />
        <nav aria-label="Main" className="hidden md:block">
          <NavigationLinks className="flex items-center gap-1" />
        </nav>
        <div className="hidden min-w-0 items-center gap-3 md:flex">
          <AccountActions />
        </div>
        <Button
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
        </Button>
      </div>
      {menuOpen && (
        <div id="mobile-menu" className="border-border border-t px-4 pb-4 md:hidden">
          <nav aria-label="Mobile">
            <NavigationLinks onNavigate={closeMenu} className="flex flex-col py-2" />
          </nav>
          <div className="flex min-w-0 flex-wrap items-center gap-3 border-border border-t pt-4">
            <AccountActions onNavigate={closeMenu} />
          </div>
        </div>
      )}
    </header>
  );
}
