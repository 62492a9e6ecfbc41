import {
  type DisputeDecision,
  type DisputeDecisionRequest,
  disputeDecisionSchema,
  formatUtcMinute,
  type StaffDisputeCase,
} from '@covenant/domain';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.js';
import { FieldError } from '@/components/ui/field-error.js';
import { Input } from '@/components/ui/input.js';
import { Label } from '@/components/ui/label.js';
import { Textarea } from '@/components/ui/textarea.js';
import { useDecideDispute } from '../api/decide-dispute.js';
import { type Leg, type LegTotals, readSplit, type SplitInputs } from './read-split.js';
import { describeStaffError } from './staff-request-error.js';
import { formatTokenAmount } from './token-amount.js';

const choices: { value: DisputeDecision; label: string; hint: string }[] = [
  {
    value: 'release',
    label: 'Release per terms',
    hint: 'The asset goes to the buyer, the stable to the seller.',
  },
  { value: 'refund', label: 'Refund both', hint: 'Each deposit returns to the party that made it.' },
  { value: 'split', label: 'Split', hint: 'You set what each party receives of each leg.' },
];

const legNames: Record<Leg, string> = { asset: 'Asset leg', stable: 'Stable leg' };

/** What any decision does to a deal disputed before its escrow opened. */
export const cancelsDealNotice =
  'This deal’s escrow was never opened, so nothing was deposited: any decision cancels the deal and no money moves.';

/** Why release and split are not offered on an escrow with a leg short of its amount (the server refuses them too). */
export const refundOnlyNotice =
  'Release and split are not available: the escrow is not fully funded, and they would pay one side out of a deposit the other never matched. Refund both returns every deposit to the party that made it.';

/** Why release and split are no longer offered once the escrow's on-chain deadline is near (the server refuses them too). */
export function windowClosedNotice(decideBy: string): string {
  return `Release and split are no longer available: they had to be decided by ${formatUtcMinute(decideBy) ?? decideBy}. The escrow’s on-chain deadline is near, after which a party may take its own leg back, so the legs can no longer be paid against each other. Refund both returns every deposit to the party that made it.`;
}

/** Until when release and split may still be decided, while they may. */
export function decideByNotice(decideBy: string): string {
  return `Release and split must be decided by ${formatUtcMinute(decideBy) ?? decideBy}, an hour before the escrow’s on-chain deadline; after that only a refund can be decided.`;
}

type ShortLegs = StaffDisputeCase['escrow_short_legs'];
type LegTravel = StaffDisputeCase['escrow_travel'][number];

const receivers: Record<Leg, 'buyer' | 'seller'> = { asset: 'buyer', stable: 'seller' };
const depositors: Record<Leg, 'buyer' | 'seller'> = { asset: 'seller', stable: 'buyer' };

/** What travel took out of a leg, and what that means for a split or a refund of it. */
export function travelNotice(travel: LegTravel, symbol: string): string {
  const receiver = receivers[travel.leg];
  return `Travel of ${formatTokenAmount(travel.paid, symbol)} was paid out of the ${travel.leg} leg (the ${receiver}’s share by the terms: ${formatTokenAmount(travel.charged_to_receiver, symbol)}). It now holds ${formatTokenAmount(travel.held, symbol)}: a split cannot give the ${receiver} more of it, and a refund returns that to the ${depositors[travel.leg]}, who then bears all of the travel.`;
}

/**
 * The mediator's decision: release, refund or a split per leg typed in whole tokens and converted
 * exactly, a written rationale, then a confirm step before it is recorded and queued for the escrow
 * (or, on a deal whose escrow never opened, before it cancels the deal, as the form says up front).
 * On an escrow with a short leg (`shortLegs`: disputed while it was being funded) only a refund is
 * offered, and the form says why with what each short leg holds; so it is once the time to pay the
 * legs against each other (`decideBy`, an hour before an Ethereum leg's on-chain deadline) has passed.
 * Travel paid out of a leg (`travel`) is shown with what it leaves for a split or a refund.
 */
export function DecisionForm({
  disputeId,
  legs,
  escrowOpened,
  shortLegs = [],
  decideBy = null,
  travel = [],
}: {
  disputeId: string;
  legs: LegTotals;
  escrowOpened: boolean;
  shortLegs?: ShortLegs;
  decideBy?: string | null;
  travel?: readonly LegTravel[];
}) {
  const id = useId();
  const windowClosed = escrowOpened && decideBy !== null && Date.now() >= Date.parse(decideBy);
  const refundOnly = escrowOpened && (shortLegs.length > 0 || windowClosed);
  const [picked, setDecision] = useState<DisputeDecision>(refundOnly ? 'refund' : 'release');
  // The case may be read again with a leg found short after a choice was made: only refund remains.
  const decision: DisputeDecision = refundOnly ? 'refund' : picked;
  const [inputs, setInputs] = useState<SplitInputs>({
    asset: { buyer: '', seller: '' },
    stable: { buyer: '', seller: '' },
  });
  const [rationale, setRationale] = useState('');
  const [problems, setProblems] = useState<Partial<Record<Leg | 'rationale', string>>>({});
  const [pending, setPending] = useState<DisputeDecisionRequest>();
  const decide = useDecideDispute(disputeId);

  const review = () => {
    const found: Partial<Record<Leg | 'rationale', string>> = {};
    let split: DisputeDecisionRequest['split'];
    if (decision === 'split') {
      const read = readSplit(inputs, legs);
      if (read.problems) Object.assign(found, read.problems);
      split = read.split;
    }
    const parsed = disputeDecisionSchema.safeParse({ decision, split, rationale });
    const rationaleIssue = parsed.error?.issues.find((issue) => issue.path[0] === 'rationale');
    if (rationaleIssue) found.rationale = rationaleIssue.message;
    setProblems(found);
    if (Object.keys(found).length > 0 || !parsed.success) return;
    setPending(parsed.data);
  };

  const submit = (request: DisputeDecisionRequest) =>
    decide.mutate(request, {
      onSuccess: (decided) =>
        toast.success('Decision recorded', {
          description:
            decided.effect === 'deal_cancelled'
              ? 'The deal is cancelled; no money moves, since none was deposited.'
              : 'It is queued for execution on-chain.',
        }),
      onError: (error) => {
        setPending(undefined);
        toast.error('The decision was not recorded', { description: describeStaffError(error) });
      },
    });

  if (pending) {
    const amounts = pending.split;
    return (
      <div role="alertdialog" aria-labelledby={`${id}-confirm`} className="space-y-3">
        <p id={`${id}-confirm`} className="font-medium">
          {escrowOpened
            ? 'Record this decision? It cannot be changed afterwards.'
            : 'Record this decision? It cancels the deal, and cannot be changed afterwards.'}
        </p>
        {!escrowOpened && <p className="text-sm">{cancelsDealNotice}</p>}
        <p className="text-sm">{choices.find((choice) => choice.value === pending.decision)?.label}</p>
        {amounts && (
          <ul className="text-sm">
            {(['asset', 'stable'] as const).map((leg) => (
              <li key={leg}>
                {legNames[leg]}: {formatTokenAmount(amounts[leg].buyer, legs[leg].symbol)} to the buyer,{' '}
                {formatTokenAmount(amounts[leg].seller, legs[leg].symbol)} to the seller
              </li>
            ))}
          </ul>
        )}
        <div className="flex gap-3">
          <Button onClick={() => submit(pending)} disabled={decide.isPending}>
            Record the decision
          </Button>
          <Button variant="outline" onClick={() => setPending(undefined)} disabled={decide.isPending}>
            Go back
          </Button>
        </div>
      </div>
    );
  }

  const setLeg = (leg: Leg, side: 'buyer' | 'seller', value: string) =>
    setInputs((current) => ({ ...current, [leg]: { ...current[leg], [side]: value } }));

  return (
    <div className="space-y-5">
      {!escrowOpened && (
        <p role="note" className="rounded-md border border-border bg-surface p-3 text-sm">
          {cancelsDealNotice}
        </p>
      )}
      {refundOnly && (
        <div
          role="note"
          id={`${id}-refund-only`}
          className="space-y-1 rounded-md border border-border bg-surface p-3 text-sm"
        >
          {shortLegs.length > 0 ? (
            <>
              <p>{refundOnlyNotice}</p>
              <ul aria-label="Short legs">
                {shortLegs.map((short) => (
                  <li key={short.leg}>
                    {legNames[short.leg]}: {formatTokenAmount(short.received, legs[short.leg].symbol)} of{' '}
                    {formatTokenAmount(short.required, legs[short.leg].symbol)} received
                  </li>
                ))}
              </ul>
            </>
          ) : (
            decideBy && <p>{windowClosedNotice(decideBy)}</p>
          )}
        </div>
      )}
      {!refundOnly && escrowOpened && decideBy && (
        <p role="note" className="rounded-md border border-border bg-surface p-3 text-sm">
          {decideByNotice(decideBy)}
        </p>
      )}
      {travel.map((leg) => (
        <p key={leg.leg} role="note" className="rounded-md border border-border bg-surface p-3 text-sm">
          {travelNotice(leg, legs[leg.leg].symbol)}
        </p>
      ))}
      <fieldset className="space-y-2">
        <legend className="font-medium">Decision</legend>
        {choices.map((choice) => (
          <label key={choice.value} className="flex items-start gap-2 text-sm has-[:disabled]:opacity-60">
            <input
              type="radio"
              name={`${id}-decision`}
              value={choice.value}
              checked={decision === choice.value}
              disabled={refundOnly && choice.value !== 'refund'}
              aria-describedby={refundOnly && choice.value !== 'refund' ? `${id}-refund-only` : undefined}
              onChange={() => setDecision(choice.value)}
              className="mt-1"
            />
            <span>
              <span className="font-medium">{choice.label}</span>
              <span className="block text-muted">{choice.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {decision === 'split' &&
        (['asset', 'stable'] as const).map((leg) => (
          <fieldset
            key={leg}
            className="space-y-2"
            aria-describedby={problems[leg] ? `${id}-${leg}-error` : undefined}
          >
            <legend className="font-medium text-sm">
              {legNames[leg]}: {formatTokenAmount(legs[leg].amount, legs[leg].symbol)}
            </legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {(['buyer', 'seller'] as const).map((side) => (
                <div key={side} className="space-y-1">
                  <Label htmlFor={`${id}-${leg}-${side}`}>
                    {legs[leg].symbol} to the {side}
                  </Label>
                  <Input
                    id={`${id}-${leg}-${side}`}
                    inputMode="decimal"
                    value={inputs[leg][side]}
                    aria-invalid={problems[leg] ? true : undefined}
                    onChange={(event) => setLeg(leg, side, event.target.value)}
                  />
                </div>
              ))}
            </div>
            <FieldError id={`${id}-${leg}-error`} message={problems[leg]} />
          </fieldset>
        ))}
      <div className="space-y-2">
        <Label htmlFor={`${id}-rationale`}>Rationale (the parties read it)</Label>
        <Textarea
          id={`${id}-rationale`}
          rows={5}
          value={rationale}
          maxLength={8000}
          aria-invalid={problems.rationale ? true : undefined}
          aria-describedby={problems.rationale ? `${id}-rationale-error` : undefined}
          onChange={(event) => setRationale(event.target.value)}
        />
        <FieldError id={`${id}-rationale-error`} message={problems.rationale} />
      </div>
      <Button onClick={review}>Review the decision</Button>
    </div>
  );
}
