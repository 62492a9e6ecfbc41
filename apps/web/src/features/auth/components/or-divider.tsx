export function OrDivider() {
  return (
    <div aria-hidden="true" className="my-6 flex items-center gap-3 text-muted text-xs uppercase">
      <span className="h-px flex-1 bg-border" />
      or
      <span className="h-px flex-1 bg-border" />
    </div>
  );
}
