import { Eye, EyeOff } from 'lucide-react';

type PasswordVisibilityToggleProps = {
  visible: boolean;
  onToggle: () => void;
  // The ids of every password input this toggle reveals.
  controls: string;
};

export function PasswordVisibilityToggle({ visible, onToggle, controls }: PasswordVisibilityToggleProps) {
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-label={visible ? 'Hide password' : 'Show password'}
      aria-controls={controls}
      className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
    >
      {visible ? (
        <EyeOff aria-hidden="true" className="size-4" />
      ) : (
        <Eye aria-hidden="true" className="size-4" />
      )}
    </button>
  );
}
