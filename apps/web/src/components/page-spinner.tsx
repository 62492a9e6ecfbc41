import { Spinner } from '@/components/ui/spinner.js';

export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner label={label} className="[&_svg]:size-8" />
    </div>
  );
}
