import { Copy } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';

/** Copies `text` and says so; on failure asks to copy by hand, since the text is on screen anyway. */
export function CopyButton({ text, label, copied }: { text: string; label: string; copied: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(copied);
    } catch {
      toast.error('Could not copy', { description: 'Select the text and copy it by hand.' });
    }
  };
  return (
    <Button variant="outline" size="sm" onClick={() => void copy()}>
      <Copy aria-hidden />
      {label}
    </Button>
  );
}
