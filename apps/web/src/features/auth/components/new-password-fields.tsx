import { useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '@/components/ui/form-field.js';
import { PasswordVisibilityToggle } from './password-visibility-toggle.js';

type NewPasswordFieldsProps = {
  passwordId: string;
  passwordLabel: string;
  confirmId: string;
  password: UseFormRegisterReturn;
  confirmPassword: UseFormRegisterReturn;
};

// A new password and its confirmation; one toggle shows or hides both, so they can be compared.
export function NewPasswordFields({
  passwordId,
  passwordLabel,
  confirmId,
  password,
  confirmPassword,
}: NewPasswordFieldsProps) {
  const [showPasswords, setShowPasswords] = useState(false);
  const passwordType = showPasswords ? 'text' : 'password';

  return (
    <>
      <FormField
        id={passwordId}
        label={passwordLabel}
        type={passwordType}
        autoComplete="new-password"
        required
        trailing={
          <PasswordVisibilityToggle
            visible={showPasswords}
            onToggle={() => setShowPasswords((shown) => !shown)}
            controls={`${passwordId} ${confirmId}`}
          />
        }
        {...password}
      />
      <FormField
        id={confirmId}
        label="Confirm Password"
        type={passwordType}
        autoComplete="new-password"
        required
        {...confirmPassword}
      />
    </>
  );
}
