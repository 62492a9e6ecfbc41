import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button.js';
import { FormField } from '@/components/ui/form-field.js';
import { type SignUpValues, useSignUp } from '../api/sign-up.js';
import { LegalLinks } from './legal-links.js';
import { NewPasswordFields } from './new-password-fields.js';

// The combined page's sign-up: names and username are optional; one toggle shows both passwords.
export function SignUpForm() {
  const { register, handleSubmit } = useForm<SignUpValues>();
  const { submit, isPending } = useSignUp();

  return (
    <form onSubmit={handleSubmit((values) => submit(values))} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id="signup-first-name"
          label="First Name"
          autoComplete="given-name"
          {...register('firstName')}
        />
        <FormField
          id="signup-last-name"
          label="Last Name"
          autoComplete="family-name"
          {...register('lastName')}
        />
      </div>
      <FormField id="signup-username" label="Username" autoComplete="username" {...register('username')} />
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
      <p className="text-muted text-xs">
        By creating an account you agree to our <LegalLinks />.
      </p>
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? 'Creating Account...' : 'Create Account'}
      </Button>
    </form>
  );
}
