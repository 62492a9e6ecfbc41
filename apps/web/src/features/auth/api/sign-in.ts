import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { paths } from '@/config/paths.js';
import { useAuth } from '@/lib/auth.js';
import { describeSignInError } from './describe-sign-in-error.js';

export type SignInValues = { email: string; password: string };

export function useSignIn() {
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: async ({ email, password }: SignInValues) => {
      const { error } = await signIn(email, password);
      if (error) throw error;
    },
    onSuccess: () => {
      toast.success('Welcome back!', { description: 'You have successfully signed in.' });
      navigate(paths.trading);
    },
    onError: (error) => {
      toast.error('Sign In Failed', { description: describeSignInError(error) });
    },
  });
  return { submit: mutation.mutate, isPending: mutation.isPending };
}
