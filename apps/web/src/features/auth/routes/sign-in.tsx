import { Link } from 'react-router';
import { paths } from '@/config/paths.js';
import { AuthLayout } from '../components/auth-layout.js';
import { GoogleSignInButton } from '../components/google-sign-in-button.js';
import { OrDivider } from '../components/or-divider.js';
import { SignInForm } from '../components/sign-in-form.js';

export function SignInRoute() {
  return (
    <AuthLayout
      title="Sign In"
      heading="Sign in to Covenant"
      description="Use the e-mail address and password of your account."
      footer={
        <>
          Don't have an account?{' '}
          <Link to={paths.signUp} className="text-primary underline-offset-4 hover:underline">
            Sign up
          </Link>
        </>
      }
    >
      <SignInForm />
      <OrDivider />
      <GoogleSignInButton />
    </AuthLayout>
  );
}
