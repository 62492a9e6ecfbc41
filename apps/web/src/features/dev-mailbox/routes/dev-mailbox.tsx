import { useParams } from 'react-router';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Spinner } from '@/components/ui/spinner.js';
import { type DevMailboxMessage, useDevMailbox } from '../api/get-dev-mailbox.js';

/**
 * `/dev/mailbox` in the web app. On the server's own machine the server answers this path with its
 * own mailbox pages, so the web app shows only where it does not: elsewhere, where the page reads
 * the mailbox for an admin with a second factor, or says why it is not open.
 */
export function DevMailboxRoute() {
  const { id } = useParams();
  const mailbox = useDevMailbox();

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-4 py-12 sm:px-6">
      <PageTitle title="Dev mailbox" />
      <h1 className="font-semibold text-3xl tracking-tight">Dev mailbox</h1>
      {mailbox.isPending ? (
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

function MailboxNotOpen() {
  const { protocol, port } = window.location;
  const local = `${protocol}//localhost${port ? `:${port}` : ''}/dev/mailbox`;
  return (
    <div role="alert" className="space-y-3 rounded-lg border border-border p-6">
      <p className="font-medium">The dev mailbox is not open to you here.</p>
      <p className="text-muted">
        It holds every confirmation and password-reset link the server sent, so it exists only when Covenant
        runs on its own (no SMTP server configured, not in production), and then opens only in a browser on
        the server’s own machine, at <span className="font-mono">{local}</span>, or to an admin signed in with
        a second factor. Anywhere else, e-mail goes to the real inboxes.
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
