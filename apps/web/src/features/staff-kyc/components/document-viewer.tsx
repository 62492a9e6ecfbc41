import type { KycDocument } from '@covenant/domain';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useKycDocument } from '../api/get-kyc-document.js';

/** Shows an image document inline; a PDF is offered as a download (the page's CSP frames nothing from blobs). */
export function DocumentViewer({ submissionId, document }: { submissionId: string; document: KycDocument }) {
  const file = useKycDocument(submissionId, document.id);
  const [url, setUrl] = useState<string>();

  useEffect(() => {
    if (!file.data) return;
    const objectUrl = URL.createObjectURL(file.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file.data]);

  if (file.isPending) return <Spinner label={`Decrypting ${document.filename}`} />;
  if (file.isError) {
    return (
      <div role="alert" className="space-y-2">
        <p className="text-destructive">
          {document.filename} could not be opened: {file.error.message}
        </p>
        <Button variant="outline" size="sm" onClick={() => void file.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!url) return null;
  return (
    <div className="space-y-2">
      {document.content_type.startsWith('image/') && (
        <img
          src={url}
          alt={`Document ${document.filename}`}
          className="max-h-[32rem] rounded-md border border-border bg-white object-contain"
        />
      )}
      <Button asChild variant="outline" size="sm">
        <a href={url} download={document.filename}>
          Download {document.filename}
        </a>
      </Button>
    </div>
  );
}
