/** How deep a leg's deposits are, against the depth the chain needs before they count as received. */
export function ConfirmationsProgress({
  confirmations,
  required,
}: {
  confirmations: number;
  required: number;
}) {
  const shown = Math.min(Math.max(confirmations, 0), required);
  const label = `${shown} of ${required} confirmations`;
  const percent = required > 0 ? (shown / required) * 100 : 100;
  return (
    <div className="space-y-1">
      <div
        role="progressbar"
        aria-label="Confirmations"
        aria-valuemin={0}
        aria-valuemax={required}
        aria-valuenow={shown}
        aria-valuetext={label}
        className="h-2 w-full overflow-hidden rounded-full bg-surface-raised"
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-muted text-xs">{label}</p>
    </div>
  );
}
