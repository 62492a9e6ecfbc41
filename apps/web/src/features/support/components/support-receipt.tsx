import { CircleCheck } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button.js';
import type { SupportReceipt as Receipt } from '../api/send-contact-message.js';

// Shown in place of a sent form: the reference to quote and when to expect our answer.
export function SupportReceipt({
  receipt,
  email,
  what,
  onAnother,
}: {
  receipt: Receipt;
  email: string;
  what: 'message' | 'ticket';
  onAnother: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus moves to the confirmation so keyboard and screen-reader users hear that it was sent.
  useEffect(() => heading.current?.focus(), []);
  const hours = receipt.response_target_hours;
  return (
    <div role="status" className="space-y-4 rounded-lg border border-primary/40 bg-primary/5 p-6">
      <h3 ref={heading} tabIndex={-1} className="flex items-center gap-2 font-semibold text-lg outline-none">
        <CircleCheck className="size-5 text-primary" aria-hidden />
        {what === 'message' ? 'Message sent' : 'Ticket created'}
      </h3>
      <p>
        Your reference is <strong className="font-mono text-primary">{receipt.reference}</strong>. Please
        quote it if you contact us about this {what}.
      </p>
      <p className="text-muted text-sm">
        {receipt.confirmation_sent
          ? `We sent a confirmation to ${email}`
          : `We could not send a confirmation to ${email}, but your ${what} is with our team`}{' '}
        and aim to answer in under {hours} {hours === 1 ? 'hour' : 'hours'}.
      </p>
      <Button variant="outline" onClick={onAnother}>
        {what === 'message' ? 'Send another message' : 'Open another ticket'}
      </Button>
    </div>
  );
}
