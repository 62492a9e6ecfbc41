import type { ComponentProps, ReactNode } from 'react';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { cn } from '@/lib/cn.js';

type FormFieldProps = ComponentProps<'input'> & {
  id: string;
  label: string;
  // Placed on the label's line, at its end (e.g. a "Forgot password?" link).
  aside?: ReactNode;
  // Placed inside the input, at its end (e.g. a show/hide toggle).
  trailing?: ReactNode;
};

export function FormField({ id, label, aside, trailing, className, ...inputProps }: FormFieldProps) {
  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {aside}
      </div>
      <div className="relative">
        <Input id={id} className={cn(trailing ? 'pr-10' : undefined, className)} {...inputProps} />
        {trailing}
      </div>
    </div>
  );
}
