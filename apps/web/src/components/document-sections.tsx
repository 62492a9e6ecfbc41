import type { Block, DocumentSection } from '@/content/document.js';

function BlockView({ block }: { block: Block }) {
  if (typeof block === 'string') return <p>{block}</p>;
  if ('list' in block) {
    return (
      <ul className="list-disc space-y-2 pl-5 marker:text-primary">
        {block.list.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    );
  }
  return (
    <ol className="list-decimal space-y-2 pl-5 marker:font-semibold marker:text-primary">
      {block.steps.map((step) => (
        <li key={step}>{step}</li>
      ))}
    </ol>
  );
}

// Written content (documentation, legal texts) as headed sections; each section's id is its anchor,
// so search results and cross-links can point at it.
export function DocumentSections({
  sections,
  headingLevel = 'h2',
}: {
  sections: DocumentSection[];
  headingLevel?: 'h2' | 'h3';
}) {
  const Heading = headingLevel;
  return (
    <div className="space-y-10">
      {sections.map((section) => (
        <section
          key={section.id}
          id={section.id}
          aria-labelledby={`${section.id}-heading`}
          className="scroll-mt-24"
        >
          <Heading
            id={`${section.id}-heading`}
            className="font-semibold text-foreground text-xl tracking-tight"
          >
            {section.title}
          </Heading>
          <div className="mt-3 space-y-4 text-muted leading-relaxed">
            {section.blocks.map((block) => (
              <BlockView key={typeof block === 'string' ? block : JSON.stringify(block)} block={block} />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
