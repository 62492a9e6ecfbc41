import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { PageSpinner } from '@/components/page-spinner.js';
import { Button } from '@/components/ui/button.js';
import { paths } from '@/config/paths.js';
import { useAuth } from '@/lib/auth.js';
import { AuthLayout } from '../components/auth-layout.js';
import { NewPasswordForm } from '../components/new-password-form.js';

// Reached from the recovery e-mail: the auth client signs the visitor in from the link (PASSWORD_RECOVERY)
// and this page lets them choose a new password. A refused link arrives as an error in the URL instead.
export function ResetPasswordRoute() {
  const { session, loading, linkError } = useAuth();

  if (loading) return <PageSpinner label="Checking your reset link" />;

  const backToSignIn = (
    <Link to={paths.auth} className="text-primary underline-offset-4 hover:underline">
      Back to Sign In
    </Link>
  );

  if (linkError) {
    return (
      <AuthLayout
        title="Reset Password"
        heading="This reset link cannot be used"
        description="Password-reset links work once and expire after a while."
        footer={backToSignIn}
      >
        <div role="alert" className="space-y-4">
          <p className="flex items-start gap-2">
            <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-destructive" />
            {linkError.message}
          </p>
          <p className="text-muted text-sm">
            Request a new link: choose “Forgot password?” on the sign-in page and enter your e-mail address.
          </p>
          <Button asChild className="w-full">
            <Link to={paths.auth}>Request a New Link</Link>
          </Button>
        </div>
      </AuthLayout>
    );
  }

  if (!session) {
    return (
      <AuthLayout
        title="Reset Password"
        heading="Reset your password"
        description="Open the link from your password-reset e-mail to choose a new password."
        footer={backToSignIn}
      >
        <p className="text-muted text-sm">
          This page needs the link we e-mail you. To get one, choose “Forgot password?” on the sign-in page.
        </p>
        <Button asChild className="mt-4 w-full">
          <Link to={paths.auth}>Go to Sign In</Link>
        </Button>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Reset Password"
      heading="Choose a new password"
      description={`For ${session.user.email ?? 'your account'}. At least 6 characters.`}
      footer={backToSignIn}
    >
      <NewPasswordForm email={session.user.email ?? ''} />
    </AuthLayout>
  );
}
