import { MailCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button.js';
import { FormField } from '@/components/ui/form-field.js';
import { useRequestPasswordReset } from '../api/request-password-reset.js';

export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const { register, handleSubmit } = useForm<{ email: string }>();
  const { submit, isPending, sentTo } = useRequestPasswordReset();

  if (sentTo) {
    return (
      <div role="status" className="space-y-3 text-center">
        <MailCheck aria-hidden="true" className="mx-auto size-10 text-primary" />
        <h2 className="font-semibold text-lg">Check your email</h2>
        <p className="text-muted text-sm">
          If an account exists for {sentTo}, we have sent it a link to set a new password. The link works once
          and expires after a while.
        </p>
        <Button variant="link" onClick={onBack}>
          Back to Sign In
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={handleSubmit(({ email }) => submit(email))} className="space-y-4">
      <div>
        <h2 className="font-semibold text-lg">Reset your password</h2>
        <p className="mt-1 text-muted text-sm">
          Enter the e-mail address of your account and we will send you a link to set a new password.
        </p>
      </div>
      <FormField
        id="reset-email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        {...register('email')}
      />
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? 'Sending Link...' : 'Send Reset Link'}
      </Button>
      <Button variant="link" className="w-full" onClick={onBack}>
        Back to Sign In
      </Button>
    </form>
  );
}
