import {
  type ContactMessage,
  type ContactMessageInput,
  contactMessageSchema,
  contactTopicLabels,
  contactTopics,
  describeResponseTarget,
  supportPriorities,
  supportPriorityLabels,
} from '@covenant/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { Textarea } from '@/components/ui/textarea.js';
import { paths } from '@/config/paths.js';
import { useAuth } from '@/lib/auth.js';
import { describeSendFailure } from '../api/describe-send-failure.js';
import { fieldIssuesOf } from '../api/field-issues-of.js';
import { useSendContactMessage } from '../api/send-contact-message.js';
import { SupportReceipt } from './support-receipt.js';

const emptyMessage: ContactMessageInput = {
  first_name: '',
  last_name: '',
  email: '',
  phone: '',
  // The placeholder option: the schema refuses it with "Choose a subject".
  subject: '' as ContactMessageInput['subject'],
  priority: 'normal',
  message: '',
  consent: false,
};

/** The contact page's form (spec §2, /contact): checked here and again by the server with one schema. */
export function ContactForm() {
  const { user } = useAuth();
  const form = useForm<ContactMessageInput, unknown, ContactMessage>({
    resolver: zodResolver(contactMessageSchema),
    defaultValues: emptyMessage,
  });
  const { register, handleSubmit, formState, setError, setValue, getValues } = form;
  const errors = formState.errors;
  const send = useSendContactMessage();

  // A signed-in user's address is filled in once the session is known, unless something was typed.
  useEffect(() => {
    if (user?.email && !getValues('email')) setValue('email', user.email);
  }, [user?.email, getValues, setValue]);

  const onSubmit = handleSubmit((message) =>
    send.mutate(message, {
      onError: (error) => {
        for (const issue of fieldIssuesOf(error)) {
          if (issue.field in emptyMessage)
            setError(issue.field as FieldPath<ContactMessageInput>, { message: issue.message });
        }
        const { title, description } = describeSendFailure(error);
        void import('sonner').then(({ toast }) => toast.error(title, { description }));
      },
      // The toast library is imported when a toast is due, so the page opens without it.
      onSuccess: (receipt) =>
        void import('sonner').then(({ toast }) =>
          toast.success('Message sent', { description: `Reference ${receipt.reference}` }),
        ),
    }),
  );

  if (send.data) {
    return (
      <SupportReceipt
        receipt={send.data}
        email={send.variables?.email ?? ''}
        what="message"
        onAnother={() => {
          form.reset({ ...emptyMessage, email: user?.email ?? '' });
          send.reset();
        }}
      />
    );
  }

  const describedBy = (field: keyof ContactMessageInput) =>
    errors[field] ? `contact-${field}-error` : undefined;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Contact form">
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="contact-first_name">First Name</Label>
          <Input
            id="contact-first_name"
            autoComplete="given-name"
            aria-invalid={errors.first_name ? true : undefined}
            aria-describedby={describedBy('first_name')}
            {...register('first_name')}
          />
          <FieldError id="contact-first_name-error" message={errors.first_name?.message} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-last_name">Last Name</Label>
          <Input
            id="contact-last_name"
            autoComplete="family-name"
            aria-invalid={errors.last_name ? true : undefined}
            aria-describedby={describedBy('last_name')}
            {...register('last_name')}
          />
          <FieldError id="contact-last_name-error" message={errors.last_name?.message} />
        </div>
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <Label htmlFor="contact-email">Email</Label>
          <Input
            id="contact-email"
            type="email"
            autoComplete="email"
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={describedBy('email')}
            {...register('email')}
          />
          <FieldError id="contact-email-error" message={errors.email?.message} />
        </div>
        <div className="space-y-2">
          <Label htmlFor="contact-phone">
            Phone <span className="font-normal text-muted">(optional)</span>
          </Label>
          <Input
            id="contact-phone"
            type="tel"
            autoComplete="tel"
            aria-invalid={errors.phone ? true : undefined}
            aria-describedby={describedBy('phone')}
            {...register('phone')}
          />
          <FieldError id="contact-phone-error" message={errors.phone?.message} />
        </div>
      </div>
      <div className="space-y-2">
        <Label htmlFor="contact-subject">Subject</Label>
        <Select
          id="contact-subject"
          aria-invalid={errors.subject ? true : undefined}
          aria-describedby={describedBy('subject')}
          {...register('subject')}
        >
          <option value="">Select a topic</option>
          {contactTopics.map((topic) => (
            <option key={topic} value={topic}>
              {contactTopicLabels[topic]}
            </option>
          ))}
        </Select>
        <FieldError id="contact-subject-error" message={errors.subject?.message} />
      </div>
      <fieldset className="space-y-2" aria-describedby={describedBy('priority')}>
        <legend className="font-medium text-sm">Priority</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {supportPriorities.map((priority) => (
            <label
              key={priority}
              className="flex cursor-pointer items-start gap-2 rounded-md border border-border p-3 text-sm has-checked:border-primary has-checked:bg-primary/5 has-focus-visible:outline-2 has-focus-visible:outline-ring"
            >
              <input
                type="radio"
                value={priority}
                className="mt-0.5 accent-primary"
                {...register('priority')}
              />
              <span>
                <span className="block font-medium">{supportPriorityLabels[priority]}</span>
                <span className="block text-muted text-xs">Reply {describeResponseTarget(priority)}</span>
              </span>
            </label>
          ))}
        </div>
        <FieldError id="contact-priority-error" message={errors.priority?.message} />
      </fieldset>
      <div className="space-y-2">
        <Label htmlFor="contact-message">Message</Label>
        <Textarea
          id="contact-message"
          rows={6}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={describedBy('message')}
          {...register('message')}
        />
        <FieldError id="contact-message-error" message={errors.message?.message} />
      </div>
      <div className="space-y-2">
        <div className="flex items-start gap-3">
          <input
            id="contact-consent"
            type="checkbox"
            className="mt-1 size-4 accent-primary"
            aria-invalid={errors.consent ? true : undefined}
            aria-describedby={describedBy('consent')}
            {...register('consent')}
          />
          <label htmlFor="contact-consent" className="text-muted text-sm">
            I agree that Covenant may use these details to answer my message, as described in the{' '}
            <Link to={paths.privacyPolicy} className="text-primary underline underline-offset-4">
              Privacy Policy
            </Link>
            .
          </label>
        </div>
        <FieldError id="contact-consent-error" message={errors.consent?.message} />
      </div>
      <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={send.isPending}>
        {send.isPending ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  );
}
