import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths.js';

export function BrandLink({ onClick }: { onClick?: () => void }) {
  return (
    <Link
      to={paths.home}
      onClick={onClick}
      className="inline-flex items-center gap-2 rounded-md font-semibold text-lg tracking-tight focus-visible:outline-2 focus-visible:outline-ring"
    >
      <ShieldCheck aria-hidden="true" className="size-6 text-primary" />
      Covenant
    </Link>
  );
}
