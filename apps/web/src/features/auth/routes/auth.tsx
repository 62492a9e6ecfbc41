import { Link } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.js';
import { paths } from '@/config/paths.js';
import { AuthLayout } from '../components/auth-layout.js';
import { SignInForm } from '../components/sign-in-form.js';
import { SignUpForm } from '../components/sign-up-form.js';

export function AuthRoute() {
  return (
    <AuthLayout
      title="Sign In or Sign Up"
      heading="Welcome to Covenant"
      description="Sign in to your account, or create one to start trading."
      footer={
        <>
          Need help?{' '}
          <Link to={paths.contact} className="text-primary underline-offset-4 hover:underline">
            Contact Support
          </Link>
        </>
      }
    >
      <Tabs defaultValue="sign-in">
        <TabsList aria-label="Sign in or sign up">
          <TabsTrigger value="sign-in">Sign In</TabsTrigger>
          <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
        </TabsList>
        <TabsContent value="sign-in" className="mt-6">
          <SignInForm />
        </TabsContent>
        <TabsContent value="sign-up" className="mt-6">
          <SignUpForm />
        </TabsContent>
      </Tabs>
    </AuthLayout>
  );
}
