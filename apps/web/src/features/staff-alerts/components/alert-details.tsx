// Keys whose values are token amounts: the engine writes them as base-unit strings, shown exactly as-is
// because an alert's point is often a one-unit difference that rounding to decimals would hide.
const amountKeys = new Set([
  'deposits',
  'payouts',
  'fees',
  'refunds',
  'sweeps',
  'expected_held',
  'held',
  'amount',
]);

function describeValue(key: string, value: unknown): string {
  if (value === null || value === undefined) return key === 'held' ? 'not read' : '—';
  if (typeof value === 'string') {
    return amountKeys.has(key) && /^-?\d+$/.test(value) ? `${value} base units` : value;
  }
  if (Array.isArray(value)) return value.map((item) => describeValue('', item)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** An alert's details as a definition list, one term per key ("expected held": "0 base units"). */
export function AlertDetails({ details }: { details: Record<string, unknown> }) {
  const entries = Object.entries(details);
  if (entries.length === 0) return null;
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
      {entries.map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="text-muted">{key.replaceAll('_', ' ')}</dt>
          <dd className="break-all font-mono">{describeValue(key, value)}</dd>
        </div>
      ))}
    </dl>
  );
}
