import {
  type ContactTopic,
  contactTopicLabels,
  type TicketCategory,
  ticketCategoryLabels,
} from '@covenant/domain';
import { useState } from 'react';
import { useParams } from 'react-router';
import { BackLink } from '@/components/back-link.js';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Button } from '@/components/ui/button.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { Spinner } from '@/components/ui/spinner.js';
import { Textarea } from '@/components/ui/textarea.js';
import { paths } from '@/config/paths.js';
import { ApiError } from '@/lib/api-client.js';
import { useSupportMessage } from '../api/get-support-message.js';
import { useReplyToSupportMessage } from '../api/reply-to-support-message.js';
import { useSetSupportMessageStatus } from '../api/set-support-message-status.js';
import {
  type SupportMessageDetail,
  type SupportStatus,
  supportStatuses,
  supportStatusLabels,
} from '../api/support-message.js';
import { AdminOnly, NotAllowed } from '../components/admin-only.js';
import { formatUtcTime } from '../components/format-utc-time.js';
import { PriorityBadge, StatusBadge } from '../components/support-badges.js';

export function InboxMessageRoute() {
  return (
    <AdminOnly>
      <InboxMessage />
    </AdminOnly>
  );
}

function InboxMessage() {
  const { id = '' } = useParams();
  const message = useSupportMessage(id);
  if (message.error instanceof ApiError && message.error.status === 403) return <NotAllowed />;
  const missing = message.error instanceof ApiError && [400, 404].includes(message.error.status);

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title={message.data ? `${message.data.reference} · Support Inbox` : 'Support Inbox'} />
      <BackLink to={paths.staffInbox}>Back to Inbox</BackLink>
      {missing ? (
        <p className="text-muted">There is no support message at this address.</p>
      ) : message.isError ? (
        <LoadError onRetry={() => void message.refetch()}>
          The message could not be loaded: {message.error.message}
        </LoadError>
      ) : !message.data ? (
        <Spinner label="Loading the message" />
      ) : (
        <MessageThread message={message.data} />
      )}
    </div>
  );
}

function MessageThread({ message }: { message: SupportMessageDetail }) {
  const details: [string, string][] = [
    ['From', message.name ? `${message.name} <${message.email}>` : message.email],
    ['Type', message.kind === 'ticket' ? 'Support ticket' : 'Contact message'],
    ['Received', formatUtcTime(message.created_at)],
  ];
  if (message.phone) details.push(['Phone', message.phone]);
  if (message.topic)
    details.push(['Topic', contactTopicLabels[message.topic as ContactTopic] ?? message.topic]);
  if (message.category) {
    details.push(['Category', ticketCategoryLabels[message.category as TicketCategory] ?? message.category]);
  }
  details.push(['Account', message.user_id ? 'Signed-in user' : 'Visitor (not signed in)']);

  return (
    <>
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-muted text-sm">{message.reference}</span>
          <StatusBadge status={message.status} />
          <PriorityBadge priority={message.priority} />
        </div>
        <h1 className="font-semibold text-3xl tracking-tight">{message.title}</h1>
      </header>
      <dl className="grid gap-x-6 gap-y-2 rounded-lg border border-border p-4 text-sm sm:grid-cols-[max-content_1fr]">
        {details.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-muted">{term}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
      <StatusControl message={message} />
      <section aria-labelledby="thread-heading" className="space-y-4">
        <h2 id="thread-heading" className="font-semibold text-xl">
          Conversation
        </h2>
        <article className="rounded-lg border border-border bg-surface p-4">
          <p className="mb-2 text-muted text-xs">{message.email} wrote:</p>
          <p className="whitespace-pre-wrap">{message.body}</p>
        </article>
        {message.replies.map((reply) => (
          <article
            key={reply.id}
            className="ml-4 rounded-lg border border-primary/30 bg-primary/5 p-4 sm:ml-12"
          >
            <p className="mb-2 text-muted text-xs">
              {reply.author_email} replied on {formatUtcTime(reply.created_at)}:
            </p>
            <p className="whitespace-pre-wrap">{reply.body}</p>
          </article>
        ))}
      </section>
      <ReplyForm message={message} />
    </>
  );
}

function StatusControl({ message }: { message: SupportMessageDetail }) {
  const setStatus = useSetSupportMessageStatus(message.id);
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="space-y-1">
        <Label htmlFor="message-status">Status</Label>
        <Select
          id="message-status"
          value={message.status}
          disabled={setStatus.isPending}
          onChange={(event) => setStatus.mutate(event.target.value as SupportStatus)}
        >
          {supportStatuses.map((status) => (
            <option key={status} value={status}>
              {supportStatusLabels[status]}
            </option>
          ))}
        </Select>
      </div>
      {setStatus.isPending ? <Spinner label="Saving the status" /> : null}
    </div>
  );
}

function ReplyForm({ message }: { message: SupportMessageDetail }) {
  const [body, setBody] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const reply = useReplyToSupportMessage(message.id);
  return (
    <form
      className="space-y-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!body.trim()) {
          setProblem('Write a reply first');
          return;
        }
        setProblem(null);
        reply.mutate(body, { onSuccess: () => setBody('') });
      }}
    >
      <Label htmlFor="reply-body">Reply to {message.email}</Label>
      <Textarea
        id="reply-body"
        rows={6}
        value={body}
        onChange={(event) => setBody(event.target.value)}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'reply-body-error' : 'reply-body-hint'}
      />
      {problem ? (
        <p id="reply-body-error" className="text-destructive text-sm">
          {problem}
        </p>
      ) : (
        <p id="reply-body-hint" className="text-muted text-xs">
          Sent by e-mail with the reference {message.reference}, and kept in this conversation.
        </p>
      )}
      <Button type="submit" disabled={reply.isPending}>
        {reply.isPending ? 'Sending...' : 'Send Reply'}
      </Button>
    </form>
  );
}
