import { isAuthError } from '@supabase/auth-js';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { type SignUpInput, useAuth } from '@/lib/auth.js';
import { checkNewPassword } from '../components/check-new-password.js';
import { describeSignUpError } from './describe-sign-up-error.js';

export type SignUpValues = SignUpInput & { confirmPassword: string };

export function useSignUp() {
  const { signUp } = useAuth();
  const mutation = useMutation({
    mutationFn: async ({ confirmPassword: _, ...input }: SignUpValues) => {
      const { error, session } = await signUp(input);
      if (error) throw error;
      return session;
    },
    onSuccess: (session) => {
      // A server that does not require e-mail confirmation signs the user in at once.
      const description = session
        ? 'Your account is ready and you are signed in.'
        : 'Please check your email to verify your account.';
      toast.success('Registration Successful!', { description });
    },
    onError: (error) => {
      const code = isAuthError(error) ? error.code : undefined;
      toast.error('Registration Failed', {
        description: describeSignUpError({ message: error.message, code }),
      });
    },
  });

  // The password rules are checked before any request, and only the first failing one is reported.
  const submit = (values: SignUpValues) => {
    const problem = checkNewPassword(values.password, values.confirmPassword);
    if (problem) {
      toast.error(problem.title, { description: problem.description });
      return;
    }
    mutation.mutate(values);
  };

  return { submit, isPending: mutation.isPending };
}
