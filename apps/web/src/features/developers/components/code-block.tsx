// Code as it should be copied: monospaced, scrolling sideways on narrow screens rather than wrapping.
// A named, focusable section, so keyboard users can reach and scroll a wide listing.
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-border bg-background focus-visible:outline-2 focus-visible:outline-ring"
    >
      <pre className="w-fit min-w-full p-4 text-[13px] leading-relaxed">
        <code>{code}</code>
      </pre>
    </section>
  );
}
