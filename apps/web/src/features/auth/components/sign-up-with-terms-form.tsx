import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button.js';
import { FormField } from '@/components/ui/form-field.js';
import { type SignUpValues, useSignUp } from '../api/sign-up.js';
import { LegalLinks } from './legal-links.js';
import { NewPasswordFields } from './new-password-fields.js';

type SignUpWithTermsValues = Omit<SignUpValues, 'username'> & { agreedToTerms: boolean };

// The stand-alone sign-up: every field is required and the terms must be accepted first.
export function SignUpWithTermsForm() {
  const { register, handleSubmit, watch } = useForm<SignUpWithTermsValues>({
    defaultValues: { agreedToTerms: false },
  });
  const { submit, isPending } = useSignUp();
  const agreedToTerms = watch('agreedToTerms');

  return (
    <form onSubmit={handleSubmit(({ agreedToTerms: _, ...values }) => submit(values))} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id="signup-first-name"
          label="First Name"
          autoComplete="given-name"
          required
          {...register('firstName')}
        />
        <FormField
          id="signup-last-name"
          label="Last Name"
          autoComplete="family-name"
          required
          {...register('lastName')}
        />
      </div>
      <FormField
        id="signup-email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        {...register('email')}
      />
      <NewPasswordFields
        passwordId="signup-password"
        passwordLabel="Password"
        confirmId="signup-confirm-password"
        password={register('password')}
        confirmPassword={register('confirmPassword')}
      />
      <div className="flex items-start gap-3">
        <input
          id="signup-terms"
          type="checkbox"
          required
          className="mt-0.5 size-4 shrink-0 accent-primary"
          {...register('agreedToTerms')}
        />
        <label htmlFor="signup-terms" className="text-muted text-sm">
          I agree to the <LegalLinks />
        </label>
      </div>
      <Button type="submit" className="w-full" disabled={isPending || !agreedToTerms}>
        {isPending ? 'Creating Account...' : 'Create Account'}
      </Button>
    </form>
  );
}
