import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { useAuth } from '@/lib/auth.js';
import { useAuthSettings } from '../api/get-auth-settings.js';

// Offered only when the server reports Google as a configured provider; otherwise shown disabled,
// with the reason next to it.
export function GoogleSignInButton() {
  const settings = useAuthSettings();
  const { signInWithGoogle } = useAuth();
  const enabled = settings.data?.external.google === true;
  const showHint = !enabled && !settings.isPending;

  const handleClick = async () => {
    const { error } = await signInWithGoogle();
    if (error) toast.error('Google Sign-In Failed', { description: error.message });
  };

  return (
    <div className="space-y-2">
      <Button
        variant="outline"
        className="w-full"
        disabled={!enabled}
        aria-describedby={showHint ? 'google-sign-in-hint' : undefined}
        onClick={handleClick}
      >
        Continue with Google
      </Button>
      {showHint && (
        <p id="google-sign-in-hint" className="text-center text-muted text-xs">
          Google sign-in is not configured on this server.
        </p>
      )}
    </div>
  );
}
