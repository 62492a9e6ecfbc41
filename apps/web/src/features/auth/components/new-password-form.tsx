import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button.js';
import { type NewPasswordValues, useUpdatePassword } from '../api/update-password.js';
import { NewPasswordFields } from './new-password-fields.js';

export function NewPasswordForm({ email }: { email: string }) {
  const { register, handleSubmit } = useForm<NewPasswordValues>();
  const { submit, isPending } = useUpdatePassword();

  return (
    <form onSubmit={handleSubmit((values) => submit(values))} className="space-y-4">
      {/* Tells password managers which account the new password belongs to. */}
      <input type="email" autoComplete="username" value={email} readOnly hidden />
      <NewPasswordFields
        passwordId="new-password"
        passwordLabel="New Password"
        confirmId="confirm-new-password"
        password={register('password')}
        confirmPassword={register('confirmPassword')}
      />
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? 'Updating Password...' : 'Update Password'}
      </Button>
    </form>
  );
}
