export function SectionHeading({
  id,
  eyebrow,
  title,
  intro,
}: {
  id: string;
  eyebrow: string;
  title: string;
  intro: string;
}) {
  return (
    <div className="max-w-2xl">
      <p className="font-semibold text-primary text-sm uppercase tracking-wider">{eyebrow}</p>
      <h2 id={id} className="mt-2 font-semibold text-2xl tracking-tight sm:text-3xl">
        {title}
      </h2>
      <p className="mt-3 text-muted">{intro}</p>
    </div>
  );
}
