import type { ComponentProps } from 'react';
import { Label } from '@/components/ui/label.js';
import { cn } from '@/lib/cn.js';

type SelectFieldProps = ComponentProps<'select'> & {
  id: string;
  label: string;
  options: readonly { value: string; label: string }[];
};

// A native select: keyboard, screen readers and mobile pickers work as people expect.
export function SelectField({ id, label, options, className, ...props }: SelectFieldProps) {
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        className={cn(
          'h-10 w-full rounded-md border border-border bg-background px-3 text-foreground text-sm focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring/40 disabled:opacity-50',
          className,
        )}
        {...props}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
