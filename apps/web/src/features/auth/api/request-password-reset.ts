import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { useAuth } from '@/lib/auth.js';

export function useRequestPasswordReset() {
  const { requestPasswordReset } = useAuth();
  const mutation = useMutation({
    mutationFn: async (email: string) => {
      const { error } = await requestPasswordReset(email);
      if (error) throw error;
    },
    onError: (error) => {
      toast.error('Reset Request Failed', { description: error.message });
    },
  });
  return {
    submit: mutation.mutate,
    isPending: mutation.isPending,
    sentTo: mutation.isSuccess ? mutation.variables : null,
  };
}
