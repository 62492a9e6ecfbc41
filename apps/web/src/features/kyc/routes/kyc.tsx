import { formatUsd, type KycSubmission, tierLabels } from '@covenant/domain';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { KycStatusBadge } from '@/components/kyc-status-badge.js';
import { LoadError } from '@/components/load-error.js';
import { PageTitle } from '@/components/page-title.js';
import { Button } from '@/components/ui/button.js';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { useKycSubmissions } from '../api/get-kyc-submissions.js';
import { KycForm } from '../components/kyc-form.js';

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** `/kyc`: the trader's verification — where it stands, and the form to ask for it. */
export function KycRoute() {
  const submissions = useKycSubmissions();
  const [requestingAnother, setRequestingAnother] = useState(false);
  const latest = submissions.data?.data[0];
  const showForm = !latest || latest.status === 'rejected' || requestingAnother;

  return (
    <div className="mx-auto w-full max-w-3xl space-y-8 px-4 py-12 sm:px-6">
      <PageTitle title="Verification" />
      <div>
        <h1 className="font-semibold text-3xl tracking-tight">Verification</h1>
        <p className="mt-2 text-muted">
          Trading needs a completed KYC verification. Tell us who you are or which company you trade for, and
          attach your documents; our compliance team reviews them and tells you by e-mail.
        </p>
      </div>
      {submissions.isPending ? (
        <Spinner label="Loading your verification" />
      ) : submissions.isError ? (
        <LoadError onRetry={() => void submissions.refetch()}>
          Your verification could not be loaded: {submissions.error.message}
        </LoadError>
      ) : (
        <>
          {latest && <LatestSubmission submission={latest} />}
          {latest?.status === 'approved' && !requestingAnother && (
            <Button variant="outline" onClick={() => setRequestingAnother(true)}>
              Request another tier
            </Button>
          )}
          {showForm && (
            <Card className="space-y-4">
              <h2 className="font-semibold text-xl">
                {latest ? 'Submit a new verification request' : 'Verify your account'}
              </h2>
              <KycForm onSubmitted={() => setRequestingAnother(false)} />
            </Card>
          )}
          {submissions.data.data.length > 1 && <History submissions={submissions.data.data.slice(1)} />}
        </>
      )}
    </div>
  );
}

function LatestSubmission({ submission }: { submission: KycSubmission }) {
  return (
    <section aria-label="Latest verification request">
      <Card className="space-y-3">
        <div className="flex flex-wrap items-center gap-3">
          <h2 className="font-semibold text-xl">Your verification</h2>
          <KycStatusBadge status={submission.status} />
        </div>
        {submission.status === 'pending' && (
          <p>
            Your request for the {tierLabels[submission.requested_tier]} tier, sent{' '}
            {dateFormat.format(new Date(submission.submitted_at))} UTC, is being reviewed. We will e-mail you
            the decision.
          </p>
        )}
        {submission.status === 'approved' && submission.approved_tier && (
          <div className="space-y-3">
            <p className="flex items-center gap-2">
              <ShieldCheck className="size-5 text-primary" aria-hidden />
              Verified at the {tierLabels[submission.approved_tier]} tier
              {submission.limit_usd && `, up to $${formatUsd(BigInt(submission.limit_usd))} per transaction`}.
            </p>
            <Button asChild>
              <Link to={paths.trading}>Start Trading</Link>
            </Button>
          </div>
        )}
        {submission.status === 'rejected' && (
          <p>
            Your request was not approved. Reason:{' '}
            <span className="font-medium">{submission.rejection_reason}</span>. You can correct the details or
            documents and send a new request below.
          </p>
        )}
        <p className="text-muted text-sm">
          {submission.legal_name} · {submission.country} · {submission.documents.length} document
          {submission.documents.length === 1 ? '' : 's'}
        </p>
      </Card>
    </section>
  );
}

function History({ submissions }: { submissions: KycSubmission[] }) {
  return (
    <section className="space-y-3">
      <h2 className="font-semibold text-lg">Earlier requests</h2>
      <ul className="divide-y divide-border rounded-lg border border-border">
        {submissions.map((submission) => (
          <li key={submission.id} className="flex flex-wrap items-center gap-3 p-4 text-sm">
            <KycStatusBadge status={submission.status} />
            <span>{tierLabels[submission.requested_tier]} tier requested</span>
            <span className="ml-auto text-muted">
              {dateFormat.format(new Date(submission.submitted_at))} UTC
            </span>
            {submission.rejection_reason && (
              <p className="w-full text-muted">Reason: {submission.rejection_reason}</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
