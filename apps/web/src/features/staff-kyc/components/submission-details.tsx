import { formatUsd, type StaffKycSubmission, tierLabels } from '@covenant/domain';
import { useState } from 'react';
import { KycStatusBadge } from '@/components/kyc-status-badge.js';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { DocumentViewer } from './document-viewer.js';
import { ReviewForm } from './review-form.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** "Hamburg, DE"; a dash on requests sent before the place of birth was asked. */
function placeOfBirth(submission: StaffKycSubmission): string {
  const place = [submission.place_of_birth_city, submission.place_of_birth_country].filter(Boolean);
  return place.length > 0 ? place.join(', ') : '—';
}

/** The rows that differ between a company and an individual. */
function subjectRows(submission: StaffKycSubmission): [string, string][] {
  return submission.subject_type === 'company'
    ? [
        ['Registration number', submission.registration_number ?? '—'],
        ['Registration authority', submission.registration_authority ?? '—'],
      ]
    : [
        ['Date of birth', submission.date_of_birth ?? '—'],
        ['Place of birth', placeOfBirth(submission)],
      ];
}

export function SubmissionDetails({ submission }: { submission: StaffKycSubmission }) {
  const [openDocumentId, setOpenDocumentId] = useState<string>();
  const rows: [string, string][] = [
    ['Trader', `${submission.user.username ?? '—'} (${submission.user.email})`],
    ['Subject', submission.subject_type === 'company' ? 'Company' : 'Individual'],
    ['Legal name', submission.legal_name],
    ['Country', submission.country],
    ...subjectRows(submission),
    ['Address', submission.address],
    ['Town or city', submission.town_name ?? '—'],
    ['Requested tier', tierLabels[submission.requested_tier]],
    ['Submitted', `${dateFormat.format(new Date(submission.submitted_at))} UTC`],
  ];
  if (submission.approved_tier) {
    rows.push([
      'Approved tier',
      `${tierLabels[submission.approved_tier]}${submission.limit_usd ? `, $${formatUsd(BigInt(submission.limit_usd))} per transaction` : ''}`,
    ]);
  }
  if (submission.rejection_reason) rows.push(['Rejection reason', submission.rejection_reason]);
  if (submission.reviewed_at)
    rows.push(['Reviewed', `${dateFormat.format(new Date(submission.reviewed_at))} UTC`]);

  return (
    <section aria-label={`Submission of ${submission.legal_name}`}>
      <Card className="space-y-6">
        <div className="flex flex-wrap items-center gap-3">
          <h2 className="font-semibold text-xl">{submission.legal_name}</h2>
          <KycStatusBadge status={submission.status} />
        </div>
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-muted">{label}</dt>
              <dd className="whitespace-pre-line">{value}</dd>
            </div>
          ))}
        </dl>
        <section className="space-y-3">
          <h3 className="font-semibold">Documents</h3>
          <ul className="space-y-3">
            {submission.documents.map((document) => (
              <li key={document.id} className="space-y-2">
                <div className="flex flex-wrap items-center gap-3 text-sm">
                  <span className="font-medium">{document.filename}</span>
                  <span className="text-muted">
                    {document.content_type}, {Math.max(1, Math.round(document.size / 1024))} KB
                  </span>
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() =>
                      setOpenDocumentId(openDocumentId === document.id ? undefined : document.id)
                    }
                  >
                    {openDocumentId === document.id ? 'Hide' : 'View'} {document.filename}
                  </Button>
                </div>
                {openDocumentId === document.id && (
                  <DocumentViewer submissionId={submission.id} document={document} />
                )}
              </li>
            ))}
          </ul>
        </section>
        {submission.status === 'pending' && <ReviewForm key={submission.id} submission={submission} />}
      </Card>
    </section>
  );
}
