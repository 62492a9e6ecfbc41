export const productName = 'Covenant';

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => htmlEscapes[character]!);
}

/** What a message says, written once and rendered as both HTML and plain text. */
export interface EmailContent {
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** A second, lesser choice shown as a plain link under the action. */
  otherAction?: { label: string; url: string };
  code?: string;
  footnote: string;
}

export function renderText(content: EmailContent): string {
  const parts = [content.heading, ...content.paragraphs];
  if (content.action) parts.push(`${content.action.label}: ${content.action.url}`);
  if (content.otherAction) parts.push(`${content.otherAction.label}: ${content.otherAction.url}`);
  if (content.code) parts.push(`Your code: ${content.code}`);
  parts.push(content.footnote, `— ${productName}`);
  return `${parts.join('\n\n')}\n`;
}

// Inline styles only: most mail clients drop <style> blocks and external CSS.
export function renderHtml(content: EmailContent): string {
  const paragraphs = content.paragraphs
    .map((paragraph) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(paragraph)}</p>`)
    .join('');
  const action = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="background:#111827;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(content.action.label)}</a></p>` +
      `<p style="margin:0 0 16px;font-size:13px;color:#4b5563">Or open this link: <a href="${escapeHtml(content.action.url)}" style="color:#1d4ed8;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : '';
  const otherAction = content.otherAction
    ? `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(content.otherAction.label)}: <a href="${escapeHtml(content.otherAction.url)}" style="color:#1d4ed8;word-break:break-all">${escapeHtml(content.otherAction.url)}</a></p>`
    : '';
  const code = content.code
    ? `<p style="margin:24px 0;font-size:28px;letter-spacing:6px;font-weight:bold;font-family:monospace">${escapeHtml(content.code)}</p>`
    : '';
  return [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(content.heading)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f3f4f6;font-family:Helvetica,Arial,sans-serif;color:#111827">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">',
    `<p style="margin:0 0 24px;font-size:20px;font-weight:bold">${productName}</p>`,
    `<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(content.heading)}</h1>`,
    paragraphs,
    action,
    otherAction,
    code,
    `<p style="margin:24px 0 0;font-size:13px;color:#6b7280">${escapeHtml(content.footnote)}</p>`,
    '</div></body></html>',
  ].join('');
}
