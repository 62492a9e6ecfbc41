import { useState, useSyncExternalStore } from 'react';
import { useParams } from 'react-router';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useAuth } from '@/lib/auth.js';
import { type DevMailboxMessage, useDevMailbox } from '../api/get-dev-mailbox.js';

const unchanging = () => () => {};

/**
 * Whether this render draws the page pre-rendered at build time: true at build time and in the render
 * that hydrates the page, false right after it and in a page the browser renders itself.
 */
function usePrerendering(): boolean {
  return useSyncExternalStore(
    unchanging,
    () => false,
    () => true,
  );
}

/**
 * `/dev/mailbox` in the web app. On the server's own machine the server answers this path with its
 * own mailbox pages, so the web app shows only where it does not: elsewhere, where the page reads
 * the mailbox for an admin with a second factor, or says why it is not open.
 * A visitor reaches this page only where the server did not open the mailbox to them, so the page is
 * pre-rendered (ADR 032) as a signed-out visitor sees it, saying so; once hydrated it keeps saying
 * so while it asks the server, unless a session is found (an admin's), and then shows the answer.
 */
export function DevMailboxRoute() {
  const { id } = useParams();
  const mailbox = useDevMailbox();
  const { session, loading } = useAuth();
  const prerendering = usePrerendering();
  // Fixed by the page's first render: a page the browser renders itself shows its spinner instead.
  const [startedPrerendered] = useState(prerendering);
  const notOpenAsPrerendered = mailbox.isPending && startedPrerendered && !session && !loading;

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Dev mailbox" />
      <h1 className="font-semibold text-3xl tracking-tight">Dev mailbox</h1>
      {notOpenAsPrerendered ? (
        <MailboxNotOpen />
      ) : mailbox.isPending ? (
        <Spinner label="Opening the mailbox" />
      ) : mailbox.isError ? (
        <LoadError onRetry={() => void mailbox.refetch()}>
          The mailbox could not be read: {mailbox.error.message}
        </LoadError>
      ) : mailbox.data === null ? (
        <MailboxNotOpen />
      ) : mailbox.data.length === 0 ? (
        <p className="rounded-lg border border-border border-dashed p-8 text-center text-muted">
          No e-mail has been sent yet.
        </p>
      ) : (
        <ul className="space-y-3" aria-label="Messages, newest first">
          {mailbox.data.map((message) => (
            <MailboxEntry key={message.id} message={message} open={message.id === id} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** The mailbox's address on the server's own machine (this page's port, on localhost); '' at build time. */
function useLocalMailboxAddress(): string {
  return useSyncExternalStore(
    unchanging,
    () => {
      const { protocol, port } = window.location;
      return `${protocol}//localhost${port ? `:${port}` : ''}/dev/mailbox`;
    },
    () => '',
  );
}

function MailboxNotOpen() {
  const local = useLocalMailboxAddress();
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-border p-6">
      <p className="font-medium">The dev mailbox is not open to you here.</p>
      <p className="text-muted">
        It holds every confirmation and password-reset link the server sent, so it exists only when Covenant
        runs on its own (no SMTP server configured, not in production), and then opens only in a browser on
        the server’s own machine, at{' '}
        {local ? (
          <span className="font-mono">{local}</span>
        ) : (
          <>
            <span className="font-mono">/dev/mailbox</span> on localhost
          </>
        )}
        , or to an admin signed in with a second factor. Anywhere else, e-mail goes to the real inboxes.
      </p>
    </div>
  );
}

function MailboxEntry({ message, open }: { message: DevMailboxMessage; open: boolean }) {
  return (
    <li className="rounded-lg border border-border">
      <details open={open}>
        <summary className="cursor-pointer space-y-1 p-4">
          <span className="font-medium">{message.subject || '(no subject)'}</span>
          <span className="block text-muted text-sm">
            To {message.to}
            {message.date ? ` · ${new Date(message.date).toLocaleString()}` : ''}
          </span>
        </summary>
        <p className="whitespace-pre-wrap break-words border-border border-t p-4 text-sm">
          <TextWithLinks text={message.text} />
        </p>
      </details>
    </li>
  );
}

/** The plain-text body with its web links clickable (confirmation and reset links are why one reads it). */
function TextWithLinks({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/);
  return parts.map((part, index) =>
    index % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never move
      <a key={index} href={part} className="text-primary underline">
        {part}
      </a>
    ) : (
      part
    ),
  );
}
