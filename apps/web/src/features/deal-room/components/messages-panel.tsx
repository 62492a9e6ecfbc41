import {
  type DealMessage,
  type DealRoomRole,
  type DealWithHistory,
  dealMessageMaxLength,
  newDealMessageSchema,
} from '@covenant/domain';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { LoadError } from '@/components/load-error.js';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Spinner } from '@/components/ui/spinner.js';
import { Textarea } from '@/components/ui/textarea.js';
import { ApiError } from '@/lib/api-client.js';
import { cn } from '@/lib/cn.js';
import { useDealMessages } from '../api/messages-get.js';
import { usePostDealMessage } from '../api/messages-post.js';

const roleLabels: Record<DealRoomRole, string> = { buyer: 'Buyer', seller: 'Seller', mediator: 'Mediator' };

/** Messages between the parties, and the mediator during a dispute; the composer sends on Enter. */
export function MessagesPanel({ deal, viewerId }: { deal: DealWithHistory; viewerId: string | undefined }) {
  const messages = useDealMessages(deal.id);
  const isParty = viewerId === deal.buyer_id || viewerId === deal.seller_id;
  const closed = isParty && (deal.status === 'cancelled' || deal.status === 'completed');
  return (
    <Card aria-labelledby="messages-title" className="space-y-4">
      <h2 id="messages-title" className="font-semibold text-lg">
        Messages
      </h2>
      {messages.isPending ? (
        <Spinner label="Loading messages" />
      ) : messages.isError ? (
        <LoadError onRetry={() => void messages.refetch()}>The messages could not be loaded.</LoadError>
      ) : (
        <MessageList messages={messages.data} viewerId={viewerId} />
      )}
      {closed ? (
        <p className="text-muted text-sm">
          This deal is {deal.status === 'cancelled' ? 'cancelled' : 'completed'}: no new messages can be
          posted.
        </p>
      ) : (
        <Composer dealId={deal.id} />
      )}
    </Card>
  );
}

function MessageList({ messages, viewerId }: { messages: DealMessage[]; viewerId: string | undefined }) {
  if (messages.length === 0) {
    return (
      <p className="text-muted text-sm">No messages yet. Anything you write here is seen by both parties.</p>
    );
  }
  return (
    <ol aria-label="Messages" className="max-h-96 space-y-3 overflow-y-auto">
      {messages.map((message) => (
        <li
          key={message.id}
          className={cn(
            'rounded-lg border px-3 py-2',
            message.author_role === 'mediator' ? 'border-amber-400/60 bg-amber-400/10' : 'border-border',
          )}
        >
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">
              {message.author_name ?? roleLabels[message.author_role]}
              {message.author_id === viewerId && ' (you)'}
            </span>
            <span
              className={cn(
                'rounded-full border px-2 py-0.5 text-xs',
                message.author_role === 'mediator'
                  ? 'border-amber-400/60 bg-amber-400/20 font-semibold text-amber-300'
                  : 'border-border text-muted',
              )}
            >
              {roleLabels[message.author_role]}
            </span>
            <time dateTime={message.created_at} className="text-muted text-xs">
              {new Date(message.created_at).toLocaleString()}
            </time>
          </div>
          <p className="mt-1 whitespace-pre-wrap break-words text-sm">{message.body}</p>
        </li>
      ))}
    </ol>
  );
}

function Composer({ dealId }: { dealId: string }) {
  const post = usePostDealMessage(dealId);
  const [body, setBody] = useState('');
  const [invalid, setInvalid] = useState<string | undefined>();

  const send = () => {
    if (post.isPending) return;
    const parsed = newDealMessageSchema.safeParse({ body });
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message);
      return;
    }
    setInvalid(undefined);
    post.mutate(parsed.data, { onSuccess: () => setBody('') });
  };
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  // Enter sends; Shift+Enter starts a new line (and an IME's Enter finishes its composition).
  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  const failure =
    post.error instanceof ApiError
      ? post.error.message
      : post.error
        ? 'The message could not be sent.'
        : undefined;

  return (
    <form onSubmit={handleSubmit} className="space-y-2">
      <label htmlFor="deal-message" className="sr-only">
        Message
      </label>
      <Textarea
        id="deal-message"
        value={body}
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={handleKeyDown}
        maxLength={dealMessageMaxLength}
        placeholder="Write a message (Enter sends, Shift+Enter for a new line)"
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? 'deal-message-error' : undefined}
        className="min-h-20"
      />
      <FieldError id="deal-message-error" message={invalid} />
      {failure && (
        <p role="alert" className="text-destructive text-sm">
          {failure}
        </p>
      )}
      <Button type="submit" size="sm" disabled={post.isPending}>
        {post.isPending ? 'Sending...' : 'Send'}
      </Button>
    </form>
  );
}
