import type { DealWithHistory, Ivms101Person } from '@covenant/domain';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card.js';
import { Spinner } from '@/components/ui/spinner.js';
import { paths } from '@/config/paths.js';
import { useTravelRuleDocument, useTravelRulePreview } from '../api/travel-rule-get.js';

/** The legal name an IVMS 101 person carries. */
function nameOf(person: Ivms101Person): string {
  return 'naturalPerson' in person
    ? (person.naturalPerson.name.nameIdentifier[0]?.primaryIdentifier ?? '')
    : (person.legalPerson.name.nameIdentifier[0]?.legalPersonName ?? '');
}

/** The person's identifying details as lines a reader can check. */
function detailsOf(person: Ivms101Person): string[] {
  const details = 'naturalPerson' in person ? person.naturalPerson : person.legalPerson;
  const lines: string[] = ['naturalPerson' in person ? 'Natural person' : 'Legal person'];
  for (const address of details.geographicAddress ?? []) {
    lines.push(`Address: ${[...address.addressLine, address.country].join(', ')}`);
    if (address.townName) lines.push(`Town or city: ${address.townName}`);
  }
  if (details.nationalIdentification) {
    const { nationalIdentifier, nationalIdentifierType, registrationAuthority } =
      details.nationalIdentification;
    const authority = registrationAuthority ? `, registration authority ${registrationAuthority}` : '';
    lines.push(`National identifier (${nationalIdentifierType}${authority}): ${nationalIdentifier}`);
  }
  if ('naturalPerson' in person && person.naturalPerson.dateAndPlaceOfBirth) {
    const { dateOfBirth, placeOfBirth } = person.naturalPerson.dateAndPlaceOfBirth;
    lines.push(`Born ${dateOfBirth} in ${placeOfBirth}`);
  }
  return lines;
}

/**
 * The Travel Rule for a deal of $1,000 or more, for its parties: before the escrow opens, the
 * viewer's own originator/beneficiary details as they will be sent and anything either party still
 * lacks (the escrow's refusal, with the way to fix it); afterwards, what was exchanged for each leg.
 */
export function TravelRulePanel({ deal, viewerId }: { deal: DealWithHistory; viewerId: string | undefined }) {
  const isParty = viewerId === deal.buyer_id || viewerId === deal.seller_id;
  const preview = useTravelRulePreview(deal.id);
  const exchanged = preview.data?.exchanged ?? false;
  const document = useTravelRuleDocument(deal.id, exchanged);
  if (!isParty || !preview.data?.applies) return null;
  const { person, message } = preview.data;

  return (
    <section aria-labelledby="travel-rule-title">
      <Card className="space-y-3">
        <h2 id="travel-rule-title" className="font-semibold text-xl">
          Travel Rule
        </h2>
        {exchanged ? (
          <>
            <p className="text-muted text-sm">
              This deal is worth ${preview.data.threshold_usd} or more. When the escrow opened, these
              originator and beneficiary details (IVMS 101) were exchanged between you and your counterparty.
            </p>
            {!document.data ? (
              <Spinner label="Loading the Travel Rule information" />
            ) : (
              <ul className="space-y-3 text-sm">
                {document.data.transfers.map((transfer) => {
                  const originator = transfer.ivms101.originator;
                  const beneficiary = transfer.ivms101.beneficiary;
                  return (
                    <li key={transfer.leg} className="space-y-1">
                      <p className="font-medium">
                        {transfer.symbol} on {transfer.chain}
                      </p>
                      <p>
                        Originator ({transfer.originator}):{' '}
                        {originator.originatorPersons.map(nameOf).join(', ')}, from{' '}
                        <span className="break-all font-mono">{originator.accountNumber.join(', ')}</span>
                      </p>
                      <p>
                        Beneficiary ({transfer.beneficiary}):{' '}
                        {beneficiary.beneficiaryPersons.map(nameOf).join(', ')}, to{' '}
                        <span className="break-all font-mono">{beneficiary.accountNumber.join(', ')}</span>
                      </p>
                    </li>
                  );
                })}
              </ul>
            )}
          </>
        ) : (
          <>
            <p className="text-muted text-sm">
              This deal is worth ${preview.data.threshold_usd} or more, so when the escrow opens your details
              below are sent to your counterparty as Travel Rule originator and beneficiary information (IVMS
              101), with your payout and refund addresses, and theirs to you.
            </p>
            {person ? (
              <div className="text-sm">
                <p className="font-medium">{nameOf(person)}</p>
                {detailsOf(person).map((line) => (
                  <p key={line} className="text-muted">
                    {line}
                  </p>
                ))}
              </div>
            ) : null}
            {message ? (
              <div role="alert" className="space-y-1 text-destructive text-sm">
                <p>{message}</p>
                <p>
                  <Link to={paths.kyc} className="text-primary underline underline-offset-4">
                    Complete your KYC record
                  </Link>
                </p>
              </div>
            ) : null}
          </>
        )}
      </Card>
    </section>
  );
}
