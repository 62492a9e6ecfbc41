import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button.js';
import { FormField } from '@/components/ui/form-field.js';
import { type SignInValues, useSignIn } from '../api/sign-in.js';
import { ForgotPasswordForm } from './forgot-password-form.js';
import { PasswordVisibilityToggle } from './password-visibility-toggle.js';

function SignInFields({ onForgotPassword }: { onForgotPassword: () => void }) {
  const { register, handleSubmit } = useForm<SignInValues>();
  const { submit, isPending } = useSignIn();
  const [showPassword, setShowPassword] = useState(false);

  return (
    <form onSubmit={handleSubmit((values) => submit(values))} className="space-y-4">
      <FormField
        id="signin-email"
        label="Email"
        type="email"
        autoComplete="email"
        required
        {...register('email')}
      />
      <FormField
        id="signin-password"
        label="Password"
        type={showPassword ? 'text' : 'password'}
        autoComplete="current-password"
        required
        aside={
          <Button variant="link" className="text-sm" onClick={onForgotPassword}>
            Forgot password?
          </Button>
        }
        trailing={
          <PasswordVisibilityToggle
            visible={showPassword}
            onToggle={() => setShowPassword((shown) => !shown)}
            controls="signin-password"
          />
        }
        {...register('password')}
      />
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? 'Signing In...' : 'Sign In'}
      </Button>
    </form>
  );
}

// Sign-in by e-mail and password, with the way to a password-reset link in the same place.
export function SignInForm() {
  const [forgotPassword, setForgotPassword] = useState(false);
  if (forgotPassword) return <ForgotPasswordForm onBack={() => setForgotPassword(false)} />;
  return <SignInFields onForgotPassword={() => setForgotPassword(true)} />;
}
