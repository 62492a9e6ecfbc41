import type { MailboxMessage } from './read-mailbox.js';

const style = `
  body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #111; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #ddd; }
  pre { white-space: pre-wrap; word-break: break-word; background: #f6f6f6; padding: 1rem; }
  iframe { width: 100%; height: 32rem; border: 1px solid #ddd; }
  .muted { color: #666; }
`;

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${style}</style></head>
<body>${body}</body></html>`;
}

function formatDate(date: Date | null): string {
  return date ? date.toISOString().replace('T', ' ').slice(0, 19) : '';
}

/** The list of messages, newest first. */
export function renderMailboxList(messages: MailboxMessage[]): string {
  const rows = messages
    .map(
      (message) => `<tr>
  <td>${escapeHtml(message.to)}</td>
  <td><a href="/dev/mailbox/${message.id}">${escapeHtml(message.subject || '(no subject)')}</a></td>
  <td class="muted">${formatDate(message.date)}</td>
</tr>`,
    )
    .join('\n');
  return page(
    'Mailbox',
    `<h1>Mailbox</h1>
<p class="muted">E-mail the server sent while no SMTP server is configured (SMTP_URL).</p>
${
  messages.length === 0
    ? '<p>No messages yet.</p>'
    : `<table><thead><tr><th>To</th><th>Subject</th><th>Date (UTC)</th></tr></thead><tbody>${rows}</tbody></table>`
}`,
  );
}

/**
 * One message. The HTML body runs in a sandboxed frame (no scripts, its own opaque origin); its
 * links open in the whole window. The plain-text body is shown too, with its links clickable.
 */
export function renderMailboxMessage(message: MailboxMessage): string {
  const text = escapeHtml(message.text).replace(
    /https?:\/\/[^\s<>"']+/g,
    (url) => `<a href="${url}">${url}</a>`,
  );
  const html = message.html
    ? `<h2>HTML</h2><iframe title="HTML body" sandbox="allow-top-navigation-by-user-activation allow-popups allow-popups-to-escape-sandbox" srcdoc="${escapeHtml(`<base target="_top">${message.html}`)}"></iframe>`
    : '';
  return page(
    message.subject,
    `<p><a href="/dev/mailbox">← Mailbox</a></p>
<h1>${escapeHtml(message.subject || '(no subject)')}</h1>
<p><strong>From:</strong> ${escapeHtml(message.from)}<br><strong>To:</strong> ${escapeHtml(message.to)}<br>
<strong>Date (UTC):</strong> ${formatDate(message.date)}</p>
${html}
<h2>Plain text</h2><pre>${text}</pre>`,
  );
}
