import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';

// The way back from a page to the list it was opened from, above its heading.
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Button asChild variant="link">
      <Link to={to}>
        <ArrowLeft aria-hidden />
        {children}
      </Link>
    </Button>
  );
}
