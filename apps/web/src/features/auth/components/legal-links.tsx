import { Link } from 'react-router';
import { paths } from '@/config/paths.js';

const linkClass = 'text-primary underline-offset-4 hover:underline';

// "Terms of Service and Privacy Policy", each linking to its page.
export function LegalLinks() {
  return (
    <>
      <Link to={paths.termsOfService} className={linkClass}>
        Terms of Service
      </Link>{' '}
      and{' '}
      <Link to={paths.privacyPolicy} className={linkClass}>
        Privacy Policy
      </Link>
    </>
  );
}
