import type { StaffChatConversation } from '@covenant/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Button } from '@/components/ui/button.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { Spinner } from '@/components/ui/spinner.js';
import { Textarea } from '@/components/ui/textarea.js';
import { AdminOnly, NotAllowed } from '@/features/staff/components/admin-only.js';
import { formatUtcTime } from '@/features/staff/components/format-utc-time.js';
import { ApiError, useApiClient } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import { staffChatApi } from '../api/live-chat-api.js';
import { ChatAttachmentDownload, ChatFilePicker } from '../components/chat-attachment.js';
import { useEventStream } from '../hooks/use-event-stream.js';

export function StaffChatRoute() {
  return (
    <AdminOnly>
      <StaffChat />
    </AdminOnly>
  );
}

/**
 * The staff console of the live chat: open conversations (or the closed ones, the history) and the
 * chosen one's messages, with assignment, canned replies and closing. Its live stream is also what
 * tells visitors that support is online.
 */
function StaffChat() {
  const api = useApiClient();
  const { session, user } = useAuth();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<'open' | 'closed'>('open');
  const [selected, setSelected] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['staff-chat', user?.id, 'list', status],
    queryFn: () => staffChatApi.list(api, status),
  });
  const headers = useMemo(
    () => (session?.access_token ? { Authorization: `Bearer ${session.access_token}` } : null),
    [session?.access_token],
  );
  const stream = useEventStream('/api/v1/staff/chat/events', headers, () => {
    void queryClient.invalidateQueries({ queryKey: ['staff-chat', user?.id] });
  });

  if (list.error instanceof ApiError && list.error.status === 403) return <NotAllowed />;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Live chat" />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-semibold text-3xl tracking-tight">Live chat</h1>
          <p className="mt-2 text-muted" data-testid="console-state">
            {stream === 'live'
              ? 'You are online: visitors can chat with support.'
              : 'Connecting… visitors are told no one is online until you are.'}
          </p>
        </div>
        <div className="space-y-1">
          <Label htmlFor="chat-status">Show</Label>
          <Select
            id="chat-status"
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as 'open' | 'closed');
              setSelected(null);
            }}
          >
            <option value="open">Open conversations</option>
            <option value="closed">Closed conversations (history)</option>
          </Select>
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-[2fr_3fr]">
        <section aria-label="Conversation list" className="space-y-2">
          {list.isPending ? <Spinner label="Loading conversations" /> : null}
          {list.error ? (
            <LoadError onRetry={() => void list.refetch()}>The conversations could not be loaded.</LoadError>
          ) : null}
          {list.data?.data.length === 0 ? <p className="text-muted">No {status} conversations.</p> : null}
          <ul className="space-y-2">
            {list.data?.data.map((conversation) => (
              <li key={conversation.id}>
                <button
                  type="button"
                  onClick={() => setSelected(conversation.id)}
                  aria-current={selected === conversation.id ? 'true' : undefined}
                  className="w-full rounded-lg border border-border bg-surface p-3 text-left hover:border-primary/50 aria-[current=true]:border-primary"
                >
                  <span className="block break-all font-medium text-sm">{conversation.email}</span>
                  <span className="block truncate text-muted text-sm">{conversation.last_message}</span>
                  <span className="mt-1 block text-muted text-xs">
                    {formatUtcTime(conversation.last_message_at)}
                    {conversation.mode === 'email' ? ' · by e-mail' : ''}
                    {conversation.assigned_email ? ` · ${conversation.assigned_email}` : ' · unassigned'}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
        {selected ? (
          <ConversationPanel id={selected} />
        ) : (
          <p className="text-muted">Choose a conversation.</p>
        )}
      </div>
    </div>
  );
}

function ConversationPanel({ id }: { id: string }) {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const conversation = useQuery({
    queryKey: ['staff-chat', user?.id, 'conversation', id],
    queryFn: () => staffChatApi.get(api, id),
  });
  const cannedReplies = useQuery({
    queryKey: ['staff-chat', user?.id, 'canned-replies'],
    queryFn: () => staffChatApi.cannedReplies(api),
  });
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const bodyId = useId();
  const cannedId = useId();
  const updated = (next: StaffChatConversation) => {
    queryClient.setQueryData(['staff-chat', user?.id, 'conversation', id], next);
    void queryClient.invalidateQueries({ queryKey: ['staff-chat', user?.id, 'list'] });
  };
  const onError = (caught: unknown) =>
    setError(caught instanceof ApiError ? caught.message : 'The action failed. Please try again.');
  const assign = useMutation({ mutationFn: () => staffChatApi.assign(api, id), onSuccess: updated, onError });
  const close = useMutation({ mutationFn: () => staffChatApi.close(api, id), onSuccess: updated, onError });
  const reply = useMutation({
    mutationFn: (answer: { text: string; file: File | null }) =>
      answer.file
        ? staffChatApi.attach(api, id, answer.file, answer.text)
        : staffChatApi.reply(api, id, answer.text),
    onSuccess: (next) => {
      setBody('');
      setFile(null);
      setError(null);
      updated(next);
    },
    onError,
  });

  if (conversation.isPending) return <Spinner label="Loading the conversation" />;
  if (conversation.error)
    return (
      <LoadError onRetry={() => void conversation.refetch()}>The conversation could not be loaded.</LoadError>
    );
  const current = conversation.data;
  const open = current.status === 'open';
  const send = (event: FormEvent) => {
    event.preventDefault();
    if (body.trim() || file) reply.mutate({ text: body, file });
  };

  return (
    <section aria-label="Conversation" className="space-y-4 rounded-xl border border-border bg-surface p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="break-all font-semibold">{current.email}</h2>
          <p className="text-muted text-sm">
            {current.mode === 'email'
              ? 'Opened while no one was online: answers go by e-mail.'
              : 'Live chat.'}{' '}
            {current.assigned_email ? `Assigned to ${current.assigned_email}.` : 'Unassigned.'}
          </p>
        </div>
        {open ? (
          <div className="flex gap-2">
            {current.assigned_to !== user?.id ? (
              <Button variant="outline" size="sm" onClick={() => assign.mutate()} disabled={assign.isPending}>
                Assign to me
              </Button>
            ) : null}
            <Button variant="outline" size="sm" onClick={() => close.mutate()} disabled={close.isPending}>
              Close
            </Button>
          </div>
        ) : null}
      </div>
      <ol aria-label="History" className="max-h-96 space-y-2 overflow-y-auto">
        {current.messages.map((message) => (
          <li
            key={message.id}
            className={
              message.author === 'staff'
                ? 'ml-8 rounded-lg bg-primary/10 px-3 py-2 text-sm'
                : 'mr-8 rounded-lg bg-surface-raised px-3 py-2 text-sm'
            }
          >
            <span className="block text-muted text-xs">
              {message.author === 'staff' ? (message.author_email ?? 'Support') : current.email} ·{' '}
              {formatUtcTime(message.created_at)}
              {message.emailed ? ' · e-mailed' : ''}
            </span>
            {message.body ? <span className="whitespace-pre-wrap break-words">{message.body}</span> : null}
            {message.attachment ? (
              <ChatAttachmentDownload
                attachment={message.attachment}
                download={() => staffChatApi.download(api, id, message.attachment!.id)}
                onError={setError}
              />
            ) : null}
          </li>
        ))}
      </ol>
      {error ? (
        <p role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
      {open ? (
        <form onSubmit={send} className="space-y-2">
          <div className="space-y-1">
            <Label htmlFor={cannedId}>Canned reply</Label>
            <Select
              id={cannedId}
              value=""
              onChange={(event) => {
                const chosen = cannedReplies.data?.data.find((canned) => canned.id === event.target.value);
                if (chosen) setBody((text) => (text ? `${text}\n\n${chosen.body}` : chosen.body));
              }}
            >
              <option value="">Insert a canned reply…</option>
              {cannedReplies.data?.data.map((canned) => (
                <option key={canned.id} value={canned.id}>
                  {canned.title}
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-1">
            <Label htmlFor={bodyId}>Your answer</Label>
            <Textarea
              id={bodyId}
              className="min-h-24"
              value={body}
              onChange={(event) => setBody(event.target.value)}
            />
          </div>
          <ChatFilePicker file={file} onChange={setFile} />
          {file && current.mode === 'email' ? (
            <p className="text-muted text-xs">
              The e-mail names the file; the visitor downloads it in the chat.
            </p>
          ) : null}
          <Button type="submit" disabled={reply.isPending || !(body.trim() || file)}>
            {current.mode === 'email' ? 'Send by e-mail' : 'Send'}
          </Button>
        </form>
      ) : (
        <p className="text-muted text-sm">
          Closed {current.closed_at ? formatUtcTime(current.closed_at) : ''}.
        </p>
      )}
      <CannedReplies />
    </section>
  );
}

function CannedReplies() {
  const api = useApiClient();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const titleId = useId();
  const bodyId = useId();
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: ['staff-chat', user?.id, 'canned-replies'] });
  const add = useMutation({
    mutationFn: () => staffChatApi.addCannedReply(api, { title, body }),
    onSuccess: () => {
      setTitle('');
      setBody('');
      void refresh();
    },
  });
  return (
    <details className="rounded-lg border border-border p-3">
      <summary className="cursor-pointer font-medium text-sm">Add a canned reply</summary>
      <form
        className="mt-3 space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (title.trim() && body.trim()) add.mutate();
        }}
      >
        <div className="space-y-1">
          <Label htmlFor={titleId}>Title</Label>
          <Input
            id={titleId}
            value={title}
            maxLength={80}
            onChange={(event) => setTitle(event.target.value)}
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor={bodyId}>Reply</Label>
          <Textarea
            id={bodyId}
            className="min-h-20"
            value={body}
            onChange={(event) => setBody(event.target.value)}
          />
        </div>
        {add.error ? <p className="text-destructive text-sm">{add.error.message}</p> : null}
        <Button type="submit" size="sm" disabled={add.isPending}>
          Save canned reply
        </Button>
      </form>
    </details>
  );
}
