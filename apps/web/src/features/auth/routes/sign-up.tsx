import { Link } from 'react-router';
import { paths } from '@/config/paths.js';
import { AuthLayout } from '../components/auth-layout.js';
import { GoogleSignInButton } from '../components/google-sign-in-button.js';
import { OrDivider } from '../components/or-divider.js';
import { SignUpWithTermsForm } from '../components/sign-up-with-terms-form.js';

export function SignUpRoute() {
  return (
    <AuthLayout
      title="Sign Up"
      heading="Create your Covenant account"
      description="After signing up, confirm your e-mail address through the link we send you."
      footer={
        <>
          Already have an account?{' '}
          <Link to={paths.signIn} className="text-primary underline-offset-4 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <SignUpWithTermsForm />
      <OrDivider />
      <GoogleSignInButton />
    </AuthLayout>
  );
}
