import { PageTitle } from '@/components/page-title.js';
import { SignInMethods } from '../components/sign-in-methods.js';
import { TwoFactorSettings } from '../components/two-factor-settings.js';

/** `/settings/security`: the account's ways to sign in and its second factor. */
export function AccountSecurityRoute() {
  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Security" />
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Security</h1>
        <p className="mt-2 text-muted">How you prove it is you when you sign in.</p>
      </div>
      <SignInMethods />
      <TwoFactorSettings />
    </div>
  );
}
