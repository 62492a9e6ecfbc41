import {
  type CisSheet,
  cisEntityTypeLabels,
  cisSettlementWindowLabels,
  cisSizeRangeLabels,
} from '@covenant/domain';

/** Every field of a Customer Information Sheet, as a list of terms and values. */
export function CisSheetDetails({ sheet }: { sheet: CisSheet }) {
  const rows: [string, string][] = [
    ['Legal name', sheet.legal_name],
    ['Entity type', cisEntityTypeLabels[sheet.entity_type]],
    ['Jurisdiction', sheet.jurisdiction],
    ['Source of funds', sheet.source_of_funds],
    ['Assets', sheet.assets.join(', ')],
    ['Usual trade size', cisSizeRangeLabels[sheet.size_range]],
    ['Preferred chains', sheet.preferred_chains.join(', ')],
    ['Settlement window', cisSettlementWindowLabels[sheet.settlement_window]],
    ['Signed PDF', sheet.has_pdf ? 'Attached' : 'None'],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-muted">{term}</dt>
          <dd className="whitespace-pre-wrap break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
