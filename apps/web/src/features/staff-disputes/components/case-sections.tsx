import {
  cisEntityTypeLabels,
  countryName,
  type DealCisEntry,
  type DisputeEvidence,
  formatCisSettlementWindow,
  formatCisTradeSize,
  type StaffDisputeCase,
} from '@covenant/domain';
import { useState } from 'react';
import { toast } from 'sonner';
import { RecordFields, RecordSection } from '@/components/record-sections.js';
import { Button } from '@/components/ui/button.js';
import { useApiClient } from '@/lib/api-client.js';
import { getDisputeEvidence } from '../api/get-dispute-evidence.js';
import { formatTokenAmount } from './token-amount.js';

const formatTime = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

type Names = Map<string, string>;

/** Who an id is, as a mediator reads it: the buyer's or seller's username, or the id itself. */
export function caseNames(data: StaffDisputeCase): Names {
  return new Map([
    [data.deal.buyer.id, `${data.deal.buyer.username ?? data.deal.buyer.id} (buyer)`],
    [data.deal.seller.id, `${data.deal.seller.username ?? data.deal.seller.id} (seller)`],
  ]);
}

export function CaseDeal({ data }: { data: StaffDisputeCase }) {
  const { deal, dispute } = data;
  const names = caseNames(data);
  return (
    <RecordSection title="Deal">
      <RecordFields
        rows={[
          ['Deal ID', deal.id],
          ['Status', deal.status],
          ['Buyer', names.get(deal.buyer.id)],
          ['Seller', names.get(deal.seller.id)],
          [
            'Asset (seller deposits)',
            `${formatTokenAmount(deal.asset_amount, deal.asset_symbol)} on ${deal.asset_chain}`,
          ],
          [
            'Stable (buyer deposits)',
            `${formatTokenAmount(deal.stable_amount, deal.stable_symbol)} on ${deal.stable_chain}`,
          ],
          [
            'Meeting',
            deal.meeting_required ? `Yes${deal.travel_location ? `, ${deal.travel_location}` : ''}` : 'No',
          ],
          ['Created', formatTime(deal.created_at)],
          ['Disputed from', dispute.status_before],
          ['Opened by', names.get(dispute.opened_by) ?? dispute.opened_by],
          ['Opened', formatTime(dispute.created_at)],
          ['Reason', dispute.reason],
        ]}
      />
    </RecordSection>
  );
}

function CisEntry({ side, entry }: { side: string; entry: DealCisEntry | null }) {
  if (!entry) return <p className="text-muted text-sm">The {side} attached no CIS.</p>;
  const { cis } = entry;
  return (
    <div className="space-y-2">
      <h3 className="font-medium capitalize">{side}</h3>
      <RecordFields
        rows={[
          ['Legal name', cis.legal_name],
          ['Entity type', cisEntityTypeLabels[cis.entity_type]],
          ['Jurisdiction', `${countryName(cis.jurisdiction)} (${cis.jurisdiction})`],
          ['Source of funds', cis.source_of_funds],
          ['Assets', cis.assets.join(', ')],
          ['Usual size', formatCisTradeSize(cis)],
          ['Preferred chains', cis.preferred_chains.join(', ')],
          ['Settlement window', formatCisSettlementWindow(cis.settlement_window_hours)],
          ['Signed PDF', cis.has_pdf ? 'Attached' : 'None'],
          ['Review', `${entry.status}${entry.review_comment ? `: ${entry.review_comment}` : ''}`],
        ]}
      />
    </div>
  );
}

export function CaseCis({ data }: { data: StaffDisputeCase }) {
  return (
    <RecordSection title="Customer Information Sheets">
      <div className="grid gap-6 md:grid-cols-2">
        <CisEntry side="buyer" entry={data.cis.buyer} />
        <CisEntry side="seller" entry={data.cis.seller} />
      </div>
    </RecordSection>
  );
}

export function CaseTerms({ data }: { data: StaffDisputeCase }) {
  const names = caseNames(data);
  return (
    <RecordSection title="Terms versions">
      {data.terms_versions.length === 0 ? (
        <p className="text-muted text-sm">No terms versions recorded.</p>
      ) : (
        <ol className="space-y-4">
          {data.terms_versions.map((version) => (
            <li key={version.version} className="space-y-2 border-border border-l-2 pl-3">
              <p className="font-medium text-sm">
                Version {version.version} · {names.get(version.proposed_by) ?? version.proposed_by} ·{' '}
                {formatTime(version.created_at)}
              </p>
              <RecordFields
                rows={Object.entries(version.terms).map(([name, value]) => [
                  name,
                  typeof value === 'string' ? value : JSON.stringify(value),
                ])}
              />
            </li>
          ))}
        </ol>
      )}
    </RecordSection>
  );
}

export function CaseMessages({ data }: { data: StaffDisputeCase }) {
  const names = caseNames(data);
  return (
    <RecordSection title="Messages">
      {data.messages.length === 0 ? (
        <p className="text-muted text-sm">The parties exchanged no messages.</p>
      ) : (
        <ol className="space-y-3">
          {data.messages.map((message) => (
            <li key={message.id} className="space-y-1">
              <p className="text-muted text-xs">
                {names.get(message.author_id) ?? 'Mediator'} · {formatTime(message.created_at)}
              </p>
              <p className="whitespace-pre-line text-sm">{message.body}</p>
            </li>
          ))}
        </ol>
      )}
    </RecordSection>
  );
}

const radiusText = (withinRadius: boolean | null) =>
  withinRadius === null
    ? 'no position shared (flagged)'
    : withinRadius
      ? 'within the radius'
      : 'outside the radius (flagged)';

/**
 * The meeting the terms require, for the mediator: where and when, who checked in how and where
 * (the position is personal data the mediators may see), who waived it.
 */
export function CaseMeeting({ data }: { data: StaffDisputeCase }) {
  const { meeting } = data;
  if (!meeting?.required) return null;
  const party = (name: 'buyer' | 'seller') => `${data.deal[name].username ?? data.deal[name].id} (${name})`;
  return (
    <RecordSection title="Meeting">
      <RecordFields
        rows={[
          [
            'Place',
            meeting.meeting
              ? `${meeting.meeting.location} (${meeting.meeting.latitude}, ${meeting.meeting.longitude})`
              : 'Not agreed',
          ],
          [
            'When',
            meeting.meeting
              ? `From ${meeting.meeting.starts_on} (UTC), ${meeting.meeting.duration} days`
              : '—',
          ],
          ['Status', meeting.status.replaceAll('_', ' ')],
          ['Waived by', meeting.waived_by.length > 0 ? meeting.waived_by.map(party).join(', ') : 'Nobody'],
        ]}
      />
      {meeting.check_ins.length === 0 ? (
        <p className="text-muted text-sm">Nobody checked in.</p>
      ) : (
        <ul className="space-y-2 text-sm" aria-label="Check-ins">
          {meeting.check_ins.map((checkIn) => (
            <li key={checkIn.party}>
              {party(checkIn.party)} checked in by {checkIn.method === 'qr' ? 'QR scan' : 'code'} on{' '}
              {formatTime(checkIn.at)}, {radiusText(checkIn.within_radius)}
              {checkIn.distance_meters !== null ? `, ${checkIn.distance_meters} m from the place` : ''}
              {checkIn.position ? ` at ${checkIn.position.latitude}, ${checkIn.position.longitude}` : ''}
            </li>
          ))}
        </ul>
      )}
    </RecordSection>
  );
}

export function CaseEvidence({ data }: { data: StaffDisputeCase }) {
  const api = useApiClient();
  const names = caseNames(data);
  const [busy, setBusy] = useState<string>();
  const download = async (file: DisputeEvidence) => {
    setBusy(file.id);
    try {
      const url = URL.createObjectURL(await getDisputeEvidence(api, data.dispute.id, file.id));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename;
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      toast.error(`${file.filename} could not be downloaded`, { description: (error as Error).message });
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <RecordSection title="Evidence">
      {data.dispute.evidence.length === 0 ? (
        <p className="text-muted text-sm">No evidence attached.</p>
      ) : (
        <ul className="space-y-2">
          {data.dispute.evidence.map((file) => (
            <li key={file.id} className="flex flex-wrap items-center gap-3 text-sm">
              <span className="font-medium">{file.filename}</span>
              <span className="text-muted">
                {file.content_type}, {Math.max(1, Math.round(file.size / 1024))} KB ·{' '}
                {names.get(file.uploaded_by) ?? file.uploaded_by}
              </span>
              <Button
                variant="outline"
                size="sm"
                disabled={busy === file.id}
                onClick={() => void download(file)}
              >
                Download {file.filename}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </RecordSection>
  );
}

export function CaseAudit({ data }: { data: StaffDisputeCase }) {
  const { audit } = data;
  const names = caseNames(data);
  return (
    <RecordSection title="Audit trail">
      <p
        className={
          audit.verified
            ? 'inline-block rounded-full border border-primary/40 bg-primary/15 px-3 py-1 font-medium text-primary text-sm'
            : 'inline-block rounded-full border border-destructive/40 bg-destructive/15 px-3 py-1 font-medium text-destructive text-sm'
        }
      >
        {audit.verified ? 'Verified' : `Not verified: broken at entry ${audit.broken_at_seq}`}
      </p>
      <ol className="space-y-2">
        {audit.entries.map((entry) => (
          <li key={entry.seq} className="text-sm">
            <span className="font-medium">
              #{entry.seq} {entry.action}
            </span>{' '}
            <span className="text-muted">
              {entry.actor_id ? (names.get(entry.actor_id) ?? entry.actor_id) : 'System'} ·{' '}
              {formatTime(entry.created_at)}
            </span>
            <span className="block break-all font-mono text-muted text-xs">{entry.hash}</span>
          </li>
        ))}
      </ol>
    </RecordSection>
  );
}
