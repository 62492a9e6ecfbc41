import { type ChatAttachment, chatAttachmentRules } from '@covenant/domain';
import { Paperclip, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button.js';

/** The widget's and the console's check before sending: the server checks the content again. */
export function checkChatFile(file: File): string | undefined {
  if (file.size > chatAttachmentRules.maxBytes) return `${file.name} is larger than 10 MB`;
  if (!(chatAttachmentRules.contentTypes as readonly string[]).includes(file.type)) {
    return `${file.name} is not a PDF, PNG or JPEG file`;
  }
  return undefined;
}

function describeSize(size: number): string {
  return size < 1024 * 1024
    ? `${Math.max(1, Math.round(size / 1024))} KB`
    : `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A file of a chat message: its name, type and size, and a button that fetches it with the chat's
 * credentials (the visitor's token, the staff member's Bearer token) and hands it to the browser.
 */
export function ChatAttachmentDownload({
  attachment,
  download,
  onError,
}: {
  attachment: ChatAttachment;
  download: () => Promise<Blob>;
  onError: (message: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      const url = URL.createObjectURL(await download());
      const link = document.createElement('a');
      link.href = url;
      link.download = attachment.filename;
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      onError(`${attachment.filename} could not be downloaded: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="mt-1 flex flex-wrap items-center gap-2" data-testid="chat-attachment">
      <Paperclip aria-hidden="true" className="size-4 shrink-0" />
      <span className="break-all font-medium">{attachment.filename}</span>
      <span className="text-xs opacity-80">
        {attachment.content_type}, {describeSize(attachment.size)}
      </span>
      <Button variant="outline" size="sm" disabled={busy} onClick={() => void save()}>
        Download {attachment.filename}
      </Button>
    </span>
  );
}

/** "Attach a file": one PDF, PNG or JPEG for the next message, checked as it is chosen. */
export function ChatFilePicker({
  file,
  onChange,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
}) {
  const id = useId();
  const [problem, setProblem] = useState<string>();
  const [inputKey, setInputKey] = useState(0);
  const clear = () => {
    onChange(null);
    setInputKey((key) => key + 1);
  };
  return (
    <div className="space-y-1 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={id} className="inline-flex cursor-pointer items-center gap-1 text-sm underline">
          <Paperclip aria-hidden="true" className="size-4" />
          Attach a file
        </label>
        <input
          // Remounted once the file is sent or removed, so the same file can be chosen again.
          key={file ? 'chosen' : `empty-${inputKey}`}
          id={id}
          type="file"
          accept={chatAttachmentRules.contentTypes.join(',')}
          className="sr-only"
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => {
            const chosen = event.target.files?.[0] ?? null;
            const found = chosen ? checkChatFile(chosen) : undefined;
            setProblem(found);
            if (found) {
              setInputKey((key) => key + 1);
              onChange(null);
            } else onChange(chosen);
          }}
        />
        {file ? (
          <span className="inline-flex items-center gap-1" data-testid="chat-chosen-file">
            {file.name}
            <Button variant="ghost" size="icon" onClick={clear} aria-label={`Remove ${file.name}`}>
              <X aria-hidden="true" />
            </Button>
          </span>
        ) : (
          <span className="text-muted text-xs">PDF, PNG or JPEG, up to 10 MB</span>
        )}
      </div>
      {problem ? (
        <p id={`${id}-error`} className="text-destructive text-sm">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
