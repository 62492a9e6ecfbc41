import {
  type CisSheet,
  cisEntityTypeLabels,
  countryName,
  formatCisSettlementWindow,
  formatCisTradeSize,
} from '@covenant/domain';

/** Every field of a Customer Information Sheet, as a list of terms and values. */
export function CisSheetDetails({ sheet }: { sheet: CisSheet }) {
  const rows: [string, string][] = [
    ['Legal name', sheet.legal_name],
    ['Entity type', cisEntityTypeLabels[sheet.entity_type]],
    ['Jurisdiction', `${countryName(sheet.jurisdiction)} (${sheet.jurisdiction})`],
    ['Source of funds', sheet.source_of_funds],
    ['Assets', sheet.assets.join(', ')],
    ['Usual trade size', formatCisTradeSize(sheet)],
    ['Preferred chains', sheet.preferred_chains.join(', ')],
    ['Settlement window', formatCisSettlementWindow(sheet.settlement_window_hours)],
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
