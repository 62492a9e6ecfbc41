import { FileText, Upload } from 'lucide-react';
import { Button } from '@/components/ui/button.js';

// The spec's placeholder. CIS files are exchanged per deal, so upload arrives with the deal lifecycle;
// until then the button says why it cannot be used rather than pretending to upload.
export function CisDocuments() {
  return (
    <div className="flex flex-col items-center gap-3 py-12 text-center">
      <FileText className="size-10 text-muted" aria-hidden />
      <p className="font-medium text-lg">No CIS documents yet</p>
      <p className="max-w-md text-muted text-sm">
        Your Customer Information Sheets will be listed here. Both parties upload and approve a CIS before
        they negotiate terms.
      </p>
      <Button disabled aria-describedby="cis-upload-note">
        <Upload aria-hidden />
        Upload CIS
      </Button>
      <p id="cis-upload-note" className="text-muted text-xs">
        CIS exchange arrives with the deal lifecycle: you will upload a CIS from a deal's page.
      </p>
    </div>
  );
}
