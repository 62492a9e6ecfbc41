import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { paths } from '@/config/paths.js';
import { useAuth } from '@/lib/auth.js';
import { checkNewPassword } from '../components/check-new-password.js';

export type NewPasswordValues = { password: string; confirmPassword: string };

export function useUpdatePassword() {
  const { updatePassword } = useAuth();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: async (password: string) => {
      const { error } = await updatePassword(password);
      if (error) throw error;
    },
    onSuccess: () => {
      toast.success('Password Updated', { description: 'Your new password is saved. You are signed in.' });
      navigate(paths.trading);
    },
    onError: (error) => {
      toast.error('Password Update Failed', { description: error.message });
    },
  });

  const submit = ({ password, confirmPassword }: NewPasswordValues) => {
    const problem = checkNewPassword(password, confirmPassword);
    if (problem) {
      toast.error(problem.title, { description: problem.description });
      return;
    }
    mutation.mutate(password);
  };

  return { submit, isPending: mutation.isPending };
}
