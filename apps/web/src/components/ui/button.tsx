import { cva, type VariantProps } from 'class-variance-authority';
import { type ComponentProps, cloneElement, isValidElement } from 'react';
import { cn } from '@/lib/cn.js';

const buttonVariants = cva(
  'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium text-sm transition-colors focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2 disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        primary: 'bg-primary text-primary-foreground hover:bg-primary-hover',
        outline: 'border border-border bg-surface text-foreground hover:bg-surface-raised',
        ghost: 'text-foreground hover:bg-surface-raised',
        link: 'text-primary underline-offset-4 hover:underline',
      },
      size: {
        default: 'h-10 px-4',
        sm: 'h-8 px-3',
        lg: 'h-12 px-6 text-base',
        icon: 'size-10',
      },
    },
    // A link-styled button sits in running text, so it takes no button height or padding.
    compoundVariants: [{ variant: 'link', className: 'h-auto px-0' }],
    defaultVariants: { variant: 'primary', size: 'default' },
  },
);

type ButtonProps = ComponentProps<'button'> &
  VariantProps<typeof buttonVariants> & {
    // Renders the single child (e.g. a router Link) with the button's look instead of a <button>.
    asChild?: boolean;
  };

export function Button({ className, variant, size, asChild = false, type, children, ...props }: ButtonProps) {
  // The child keeps its own props; it gains the button's classes. A plain clone rather than a Slot
  // component keeps a kilobyte out of the JavaScript every page loads first.
  if (asChild && isValidElement<{ className?: string }>(children)) {
    return cloneElement(children, {
      ...props,
      ...children.props,
      className: cn(buttonVariants({ variant, size }), className, children.props.className),
    });
  }
  return (
    <button type={type ?? 'button'} className={cn(buttonVariants({ variant, size }), className)} {...props}>
      {children}
    </button>
  );
}
