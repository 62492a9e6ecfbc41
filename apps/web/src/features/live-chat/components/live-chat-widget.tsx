import { type ChatConversation, newChatConversationSchema } from '@covenant/domain';
import { MessageCircle, X } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Textarea } from '@/components/ui/textarea.js';
import { ApiError } from '@/lib/api-client.js';
import { useAuth } from '@/lib/auth.js';
import { chatTokenStorageKey, liveChatApi } from '../api/live-chat-api.js';
import { useEventStream } from '../hooks/use-event-stream.js';
import { ChatAttachmentDownload, ChatFilePicker } from './chat-attachment.js';

function storedToken(): string | null {
  try {
    return window.localStorage.getItem(chatTokenStorageKey);
  } catch {
    return null;
  }
}

function storeToken(token: string | null) {
  try {
    if (token) window.localStorage.setItem(chatTokenStorageKey, token);
    else window.localStorage.removeItem(chatTokenStorageKey);
  } catch {
    // Private mode without storage: the chat lasts as long as the page.
  }
}

function describeError(error: unknown): string {
  return error instanceof ApiError ? error.message : 'The chat could not be reached. Please try again.';
}

/**
 * The live chat: a button that opens a panel (a sheet across the bottom on a phone, a window in the
 * corner on a larger screen). A visitor leaves an address and a first message; the conversation's
 * token stays in this browser, so the chat is there again after a reload. Messages arrive live; when
 * no one from support is online the panel says so, and the answer comes by e-mail.
 */
export function LiveChatWidget({ label = 'Start live chat' }: { label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" className="mt-4" onClick={() => setOpen(true)} aria-expanded={open}>
        <MessageCircle aria-hidden="true" />
        {label}
      </Button>
      {open ? <LiveChatPanel onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function LiveChatPanel({ onClose }: { onClose: () => void }) {
  const titleId = useId();
  const [token, setToken] = useState<string | null>(storedToken);
  const [conversation, setConversation] = useState<ChatConversation | null>(null);
  const [staffOnline, setStaffOnline] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    if (!token) {
      const status = await liveChatApi.status().catch(() => null);
      if (status) setStaffOnline(status.staff_online);
      return;
    }
    try {
      const read = await liveChatApi.get(token);
      setConversation(read);
      setStaffOnline(read.staff_online);
    } catch (caught) {
      // The conversation is gone (or the token is not one): start afresh.
      if (caught instanceof ApiError && caught.status === 404) {
        storeToken(null);
        setToken(null);
        setConversation(null);
      } else setError(describeError(caught));
    }
  }, [token]);

  useEffect(() => {
    void reload();
    // Presence also changes when a console's replica disappears without a word: look again now and then.
    const timer = setInterval(() => void reload(), 30_000);
    return () => clearInterval(timer);
  }, [reload]);

  const headers = useMemo(() => (token ? { 'X-Chat-Token': token } : null), [token]);
  useEventStream('/api/v1/chat/conversation/events', headers, () => void reload());

  const started = (opened: { token: string; conversation: ChatConversation }) => {
    storeToken(opened.token);
    setToken(opened.token);
    setConversation(opened.conversation);
    setStaffOnline(opened.conversation.staff_online);
  };
  const startOver = () => {
    storeToken(null);
    setToken(null);
    setConversation(null);
  };

  return (
    <section
      role="dialog"
      aria-labelledby={titleId}
      className="fixed inset-x-0 bottom-0 z-50 flex max-h-[85vh] flex-col rounded-t-xl border border-border bg-surface shadow-xl sm:inset-x-auto sm:right-6 sm:bottom-6 sm:w-96 sm:rounded-xl"
    >
      <header className="flex items-center justify-between gap-2 border-border border-b px-4 py-3">
        <div>
          <h2 id={titleId} className="font-semibold">
            Live chat
          </h2>
          <p className="text-muted text-xs" data-testid="chat-presence">
            {staffOnline === null
              ? 'Checking who is online…'
              : staffOnline
                ? 'Support is online'
                : 'No one from support is online right now'}
          </p>
        </div>
        <Button variant="ghost" size="icon" onClick={onClose} aria-label="Close the chat">
          <X aria-hidden="true" />
        </Button>
      </header>
      {error ? (
        <p role="alert" className="px-4 pt-3 text-destructive text-sm">
          {error}
        </p>
      ) : null}
      {conversation ? (
        <Conversation
          conversation={conversation}
          token={token!}
          onChange={setConversation}
          onError={setError}
          onStartOver={startOver}
        />
      ) : (
        <StartForm staffOnline={staffOnline} onStarted={started} onError={setError} />
      )}
    </section>
  );
}

function StartForm({
  staffOnline,
  onStarted,
  onError,
}: {
  staffOnline: boolean | null;
  onStarted: (opened: { token: string; conversation: ChatConversation }) => void;
  onError: (message: string | null) => void;
}) {
  const { user, session } = useAuth();
  const [email, setEmail] = useState(user?.email ?? '');
  const [body, setBody] = useState('');
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const emailId = useId();
  const bodyId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = newChatConversationSchema.safeParse({ email, body });
    if (!parsed.success) {
      setIssues(
        Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])),
      );
      return;
    }
    setIssues({});
    setSending(true);
    onError(null);
    try {
      onStarted(await liveChatApi.open(parsed.data, session?.access_token));
    } catch (caught) {
      onError(describeError(caught));
    } finally {
      setSending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3 overflow-y-auto p-4">
      <p className="text-muted text-sm">
        {staffOnline === false
          ? 'Leave your message and your e-mail address: your message becomes a ticket and we answer by e-mail.'
          : 'Ask us anything about your account, a trade or an escrow.'}
      </p>
      <div className="space-y-1">
        <Label htmlFor={emailId}>Your email</Label>
        <Input
          id={emailId}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={issues.email ? true : undefined}
        />
        {issues.email ? <p className="text-destructive text-sm">{issues.email}</p> : null}
      </div>
      <div className="space-y-1">
        <Label htmlFor={bodyId}>Your message</Label>
        <Textarea
          id={bodyId}
          className="min-h-24"
          value={body}
          onChange={(event) => setBody(event.target.value)}
          aria-invalid={issues.body ? true : undefined}
        />
        {issues.body ? <p className="text-destructive text-sm">{issues.body}</p> : null}
      </div>
      <Button type="submit" disabled={sending} className="w-full">
        Start chat
      </Button>
    </form>
  );
}

function Conversation({
  conversation,
  token,
  onChange,
  onError,
  onStartOver,
}: {
  conversation: ChatConversation;
  token: string;
  onChange: (conversation: ChatConversation) => void;
  onError: (message: string | null) => void;
  onStartOver: () => void;
}) {
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const bodyId = useId();
  const closed = conversation.status === 'closed';
  const ready = Boolean(body.trim() || file);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    setSending(true);
    onError(null);
    try {
      onChange(await (file ? liveChatApi.attach(token, file, body) : liveChatApi.write(token, body)));
      setBody('');
      setFile(null);
    } catch (caught) {
      onError(describeError(caught));
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <ol aria-label="Messages" aria-live="polite" className="flex-1 space-y-2 overflow-y-auto p-4">
        {conversation.messages.map((message) => (
          <li
            key={message.id}
            className={
              message.author === 'visitor'
                ? 'ml-8 rounded-lg bg-primary px-3 py-2 text-primary-foreground text-sm'
                : 'mr-8 rounded-lg bg-surface-raised px-3 py-2 text-sm'
            }
          >
            <span className="sr-only">{message.author === 'visitor' ? 'You: ' : 'Support: '}</span>
            {message.body ? <span className="whitespace-pre-wrap break-words">{message.body}</span> : null}
            {message.attachment ? (
              <ChatAttachmentDownload
                attachment={message.attachment}
                download={() => liveChatApi.download(token, message.attachment!.id)}
                onError={onError}
              />
            ) : null}
            {message.emailed ? (
              <span className="mt-1 block text-muted text-xs">Sent to you by e-mail</span>
            ) : null}
          </li>
        ))}
      </ol>
      {conversation.mode === 'email' && !closed ? (
        <p className="px-4 pb-2 text-muted text-xs" data-testid="chat-by-email">
          No one was online, so this chat is now a ticket: we answer by e-mail to {conversation.email}.
        </p>
      ) : null}
      {closed ? (
        <div className="space-y-2 p-4">
          <p className="text-muted text-sm">This conversation is closed.</p>
          <Button variant="outline" size="sm" onClick={onStartOver}>
            Start a new chat
          </Button>
        </div>
      ) : (
        <form onSubmit={send} className="space-y-2 border-border border-t p-3">
          <div className="flex items-end gap-2">
            <div className="flex-1">
              <Label htmlFor={bodyId} className="sr-only">
                Your message
              </Label>
              <Textarea
                id={bodyId}
                className="min-h-12"
                value={body}
                placeholder="Write a message"
                onChange={(event) => setBody(event.target.value)}
              />
            </div>
            <Button type="submit" disabled={sending || !ready}>
              Send
            </Button>
          </div>
          <ChatFilePicker file={file} onChange={setFile} />
        </form>
      )}
    </>
  );
}
