import { FileText, Upload } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button.js';
import { Spinner } from '@/components/ui/spinner.js';
import { useCisSheets } from '../api/cis-sheets.js';
import { CisSheetDetails } from './cis-sheet-details.js';
import { CisUploadForm } from './cis-upload-form.js';
import { QueryErrorState } from './query-error-state.js';

/** The CIS Documents tab: the trader's Customer Information Sheets and the form for a new one. */
export function CisDocuments() {
  const sheets = useCisSheets();
  const [uploading, setUploading] = useState(false);

  if (uploading) {
    return (
      <section className="space-y-4" aria-labelledby="cis-upload-heading">
        <h2 id="cis-upload-heading" className="font-semibold text-lg">
          Upload CIS
        </h2>
        <CisUploadForm onUploaded={() => setUploading(false)} onCancel={() => setUploading(false)} />
      </section>
    );
  }
  if (sheets.isError) {
    return (
      <QueryErrorState
        title="Your CIS documents could not be loaded."
        onRetry={() => void sheets.refetch()}
      />
    );
  }
  if (!sheets.data) return <Spinner label="Loading your CIS documents" />;

  const uploadButton = (
    <Button onClick={() => setUploading(true)}>
      <Upload aria-hidden />
      Upload CIS
    </Button>
  );
  if (sheets.data.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 py-12 text-center">
        <FileText className="size-10 text-muted" aria-hidden />
        <p className="font-medium text-lg">No CIS documents yet</p>
        <p className="max-w-md text-muted text-sm">
          Your Customer Information Sheets will be listed here. Both parties upload and approve a CIS before
          they negotiate terms.
        </p>
        {uploadButton}
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="font-semibold text-lg">Your CIS documents</h2>
        {uploadButton}
      </div>
      <p className="text-muted text-sm">Attach one of them to a deal from the deal's page.</p>
      <ul className="space-y-4">
        {sheets.data.map((sheet) => (
          <li
            key={sheet.id}
            className="space-y-3 rounded-lg border border-border p-4"
            data-testid="cis-sheet"
          >
            <p className="text-muted text-xs">Uploaded {new Date(sheet.created_at).toLocaleString()}</p>
            <CisSheetDetails sheet={sheet} />
          </li>
        ))}
      </ul>
    </div>
  );
}
