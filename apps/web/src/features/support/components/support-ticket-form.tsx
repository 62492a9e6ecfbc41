import {
  type SupportTicket,
  type SupportTicketInput,
  supportTicketSchema,
  ticketCategories,
  ticketCategoryLabels,
} from '@covenant/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { Textarea } from '@/components/ui/textarea.js';
import { useAuth } from '@/lib/auth.js';
import { describeSendFailure } from '../api/describe-send-failure.js';
import { fieldIssuesOf } from '../api/field-issues-of.js';
import { useSubmitSupportTicket } from '../api/submit-support-ticket.js';
import { SupportReceipt } from './support-receipt.js';

const emptyTicket: SupportTicketInput = {
  email: '',
  subject: '',
  // The placeholder option: the schema refuses it with "Choose a category".
  category: '' as SupportTicketInput['category'],
  description: '',
};

/** The Help Center's ticket form (subject, category, description); signed-in users' tickets are linked. */
export function SupportTicketForm() {
  const { user } = useAuth();
  const form = useForm<SupportTicketInput, unknown, SupportTicket>({
    resolver: zodResolver(supportTicketSchema),
    defaultValues: emptyTicket,
  });
  const { register, handleSubmit, formState, setError, setValue, getValues } = form;
  const errors = formState.errors;
  const submit = useSubmitSupportTicket();

  useEffect(() => {
    if (user?.email && !getValues('email')) setValue('email', user.email);
  }, [user?.email, getValues, setValue]);

  const onSubmit = handleSubmit((ticket) =>
    submit.mutate(ticket, {
      onError: (error) => {
        for (const issue of fieldIssuesOf(error)) {
          if (issue.field in emptyTicket)
            setError(issue.field as FieldPath<SupportTicketInput>, { message: issue.message });
        }
        const { title, description } = describeSendFailure(error);
        void import('sonner').then(({ toast }) => toast.error(title, { description }));
      },
      // The toast library is imported when a toast is due, so the page opens without it.
      onSuccess: (receipt) =>
        void import('sonner').then(({ toast }) =>
          toast.success('Ticket created', { description: `Reference ${receipt.reference}` }),
        ),
    }),
  );

  if (submit.data) {
    return (
      <SupportReceipt
        receipt={submit.data}
        email={submit.variables?.email ?? ''}
        what="ticket"
        onAnother={() => {
          form.reset({ ...emptyTicket, email: user?.email ?? '' });
          submit.reset();
        }}
      />
    );
  }

  const describedBy = (field: keyof SupportTicketInput) =>
    errors[field] ? `ticket-${field}-error` : undefined;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Support ticket form">
      <div className="space-y-2">
        <Label htmlFor="ticket-email">Email</Label>
        <Input
          id="ticket-email"
          type="email"
          autoComplete="email"
          readOnly={Boolean(user?.email)}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={describedBy('email') ?? (user?.email ? 'ticket-email-hint' : undefined)}
          {...register('email')}
        />
        {user?.email ? (
          <p id="ticket-email-hint" className="text-muted text-xs">
            The ticket is linked to your account.
          </p>
        ) : null}
        <FieldError id="ticket-email-error" message={errors.email?.message} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="ticket-subject">Subject</Label>
        <Input
          id="ticket-subject"
          aria-invalid={errors.subject ? true : undefined}
          aria-describedby={describedBy('subject')}
          {...register('subject')}
        />
        <FieldError id="ticket-subject-error" message={errors.subject?.message} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="ticket-category">Category</Label>
        <Select
          id="ticket-category"
          aria-invalid={errors.category ? true : undefined}
          aria-describedby={describedBy('category')}
          {...register('category')}
        >
          <option value="">Select a category</option>
          {ticketCategories.map((category) => (
            <option key={category} value={category}>
              {ticketCategoryLabels[category]}
            </option>
          ))}
        </Select>
        <FieldError id="ticket-category-error" message={errors.category?.message} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="ticket-description">Description</Label>
        <Textarea
          id="ticket-description"
          rows={6}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={describedBy('description')}
          {...register('description')}
        />
        <FieldError id="ticket-description-error" message={errors.description?.message} />
      </div>
      <Button type="submit" className="w-full sm:w-auto" disabled={submit.isPending}>
        {submit.isPending ? 'Submitting...' : 'Submit Ticket'}
      </Button>
    </form>
  );
}
