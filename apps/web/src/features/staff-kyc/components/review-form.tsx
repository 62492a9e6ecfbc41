import { type StaffKycSubmission, type TradingTier, tierLabels, tradingTiers } from '@covenant/domain';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Select } from '@/components/ui/select.js';
import { Textarea } from '@/components/ui/textarea.js';
import { useReviewKycSubmission } from '../api/review-kyc-submission.js';

/** Approve with a tier (and, for institutional, the limit in whole dollars) or reject with a reason. */
export function ReviewForm({ submission }: { submission: StaffKycSubmission }) {
  const id = useId();
  const [tier, setTier] = useState<TradingTier>(submission.requested_tier);
  const [limit, setLimit] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<{ field: 'limit' | 'reason'; message: string }>();
  const review = useReviewKycSubmission(submission.id);

  const onError = (error: Error) => toast.error('Review not saved', { description: error.message });

  const approve = () => {
    if (tier === 'institutional' && !/^[1-9]\d{0,14}$/.test(limit)) {
      setProblem({ field: 'limit', message: 'Enter the per-transaction limit in whole US dollars' });
      return;
    }
    setProblem(undefined);
    review.mutate(
      { decision: 'approve', tier, ...(tier === 'institutional' ? { limit_usd: limit } : {}) },
      {
        onSuccess: () =>
          toast.success('Verification approved', {
            description: `${submission.user.email} is verified at the ${tierLabels[tier]} tier.`,
          }),
        onError,
      },
    );
  };

  const reject = () => {
    if (reason.trim().length < 3) {
      setProblem({ field: 'reason', message: 'Give the trader a reason' });
      return;
    }
    setProblem(undefined);
    review.mutate(
      { decision: 'reject', reason: reason.trim() },
      {
        onSuccess: () =>
          toast.success('Verification rejected', { description: `${submission.user.email} was told why.` }),
        onError,
      },
    );
  };

  return (
    <div className="grid gap-6 md:grid-cols-2">
      <div className="space-y-3">
        <h3 className="font-semibold">Approve</h3>
        <div className="space-y-2">
          <Label htmlFor={`${id}-tier`}>Tier</Label>
          <Select
            id={`${id}-tier`}
            value={tier}
            onChange={(event) => setTier(event.target.value as TradingTier)}
          >
            {tradingTiers.map((value) => (
              <option key={value} value={value}>
                {tierLabels[value]}
              </option>
            ))}
          </Select>
        </div>
        {tier === 'institutional' && (
          <div className="space-y-2">
            <Label htmlFor={`${id}-limit`}>Limit per transaction (USD)</Label>
            <Input
              id={`${id}-limit`}
              inputMode="numeric"
              value={limit}
              aria-invalid={problem?.field === 'limit' ? true : undefined}
              aria-describedby={problem?.field === 'limit' ? `${id}-limit-error` : undefined}
              onChange={(event) => setLimit(event.target.value.trim())}
            />
            <FieldError
              id={`${id}-limit-error`}
              message={problem?.field === 'limit' ? problem.message : undefined}
            />
          </div>
        )}
        <Button onClick={approve} disabled={review.isPending}>
          Approve
        </Button>
      </div>
      <div className="space-y-3">
        <h3 className="font-semibold">Reject</h3>
        <div className="space-y-2">
          <Label htmlFor={`${id}-reason`}>Reason (sent to the trader)</Label>
          <Textarea
            id={`${id}-reason`}
            rows={3}
            value={reason}
            maxLength={1000}
            aria-invalid={problem?.field === 'reason' ? true : undefined}
            aria-describedby={problem?.field === 'reason' ? `${id}-reason-error` : undefined}
            onChange={(event) => setReason(event.target.value)}
          />
          <FieldError
            id={`${id}-reason-error`}
            message={problem?.field === 'reason' ? problem.message : undefined}
          />
        </div>
        <Button variant="outline" onClick={reject} disabled={review.isPending}>
          Reject
        </Button>
      </div>
    </div>
  );
}
