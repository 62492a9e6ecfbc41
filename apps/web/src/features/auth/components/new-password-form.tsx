import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button.js';
import { FormField } from '@/components/ui/form-field.js';
import { type NewPasswordValues, useUpdatePassword } from '../api/update-password.js';
import { PasswordVisibilityToggle } from './password-visibility-toggle.js';

export function NewPasswordForm({ email }: { email: string }) {
  const { register, handleSubmit } = useForm<NewPasswordValues>();
  const { submit, isPending } = useUpdatePassword();
  const [showPasswords, setShowPasswords] = useState(false);
  const passwordType = showPasswords ? 'text' : 'password';

  return (
    <form onSubmit={handleSubmit((values) => submit(values))} className="space-y-4">
      {/* Tells password managers which account the new password belongs to. */}
      <input type="email" autoComplete="username" value={email} readOnly hidden />
      <FormField
        id="new-password"
        label="New Password"
        type={passwordType}
        autoComplete="new-password"
        required
        trailing={
          <PasswordVisibilityToggle
            visible={showPasswords}
            onToggle={() => setShowPasswords((shown) => !shown)}
            controls="new-password confirm-new-password"
          />
        }
        {...register('password')}
      />
      <FormField
        id="confirm-new-password"
        label="Confirm Password"
        type={passwordType}
        autoComplete="new-password"
        required
        {...register('confirmPassword')}
      />
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? 'Updating Password...' : 'Update Password'}
      </Button>
    </form>
  );
}
