/** The parts of an RFC 822 message the dev mailbox and the tests read. */
export interface ParsedEmail {
  from: string;
  to: string;
  subject: string;
  date: Date | null;
  text: string;
  html: string;
}

interface MimePart {
  headers: Map<string, string>;
  /** The part's body as raw bytes, one char per byte (latin1), still transfer-encoded. */
  body: string;
}

/**
 * Reads the messages nodemailer builds: headers with RFC 2047 encoded words, a text and an HTML
 * body (possibly inside nested multipart containers), in 7bit, 8bit, quoted-printable or base64.
 * Attachments are skipped. Not a general MIME parser: only messages this server sends pass through.
 */
export function parseEmail(raw: Buffer): ParsedEmail {
  // The line break ending the message belongs to the transport, not to a 7bit body.
  const message = splitPart(raw.toString('latin1').replace(/\r?\n$/, ''));
  const bodies = { text: '', html: '' };
  collectBodies(message, bodies);
  const header = (name: string) => decodeHeader(message.headers.get(name) ?? '');
  const date = message.headers.get('date');
  return {
    from: header('from'),
    to: header('to'),
    subject: header('subject'),
    date: date ? new Date(date) : null,
    ...bodies,
  };
}

function splitPart(source: string): MimePart {
  const end = source.search(/\r?\n\r?\n/);
  const head = end === -1 ? source : source.slice(0, end);
  const body = end === -1 ? '' : source.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function collectBodies(part: MimePart, bodies: { text: string; html: string }): void {
  const { type, parameters } = parseContentType(part.headers.get('content-type') ?? 'text/plain');
  if (type.startsWith('multipart/') && parameters.boundary) {
    for (const child of splitMultipart(part.body, parameters.boundary)) collectBodies(child, bodies);
    return;
  }
  if (/^attachment/i.test(part.headers.get('content-disposition') ?? '')) return;
  const key = type === 'text/html' ? 'html' : type === 'text/plain' ? 'text' : undefined;
  if (!key || bodies[key]) return;
  const bytes = decodeTransfer(part.body, part.headers.get('content-transfer-encoding') ?? '7bit');
  bodies[key] = decodeCharset(bytes, parameters.charset ?? 'utf-8');
}

function parseContentType(value: string): { type: string; parameters: Record<string, string> } {
  const [type = '', ...rest] = value.split(';');
  const parameters: Record<string, string> = {};
  for (const parameter of rest) {
    const equals = parameter.indexOf('=');
    if (equals === -1) continue;
    const name = parameter.slice(0, equals).trim().toLowerCase();
    parameters[name] = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { type: type.trim().toLowerCase(), parameters };
}

function splitMultipart(body: string, boundary: string): MimePart[] {
  const delimiter = `--${boundary}`;
  const closing = body.indexOf(`${delimiter}--`);
  const sections = (closing === -1 ? body : body.slice(0, closing)).split(delimiter);
  // Before the first delimiter is the preamble; each part starts after its delimiter's line break.
  return sections.slice(1).map((section) => splitPart(section.replace(/^\r?\n/, '').replace(/\r?\n$/, '')));
}

function decodeTransfer(body: string, encoding: string): Buffer {
  switch (encoding.trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    default:
      return Buffer.from(body, 'latin1');
  }
}

function decodeQuotedPrintable(body: string): Buffer {
  const unwrapped = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < unwrapped.length; i++) {
    const hex = unwrapped.slice(i + 1, i + 3);
    if (unwrapped[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(unwrapped.charCodeAt(i));
    }
  }
  return Buffer.from(bytes);
}

function decodeCharset(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/** Decodes RFC 2047 encoded words (=?utf-8?Q?...?= / =?utf-8?B?...?=); raw 8-bit headers are UTF-8. */
function decodeHeader(value: string): string {
  return Buffer.from(value, 'latin1')
    .toString('utf8')
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset: string, encoding: string, text: string) => {
      const bytes =
        encoding.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : decodeQuotedPrintable(text.replace(/_/g, ' '));
      return decodeCharset(bytes, charset);
    });
}
