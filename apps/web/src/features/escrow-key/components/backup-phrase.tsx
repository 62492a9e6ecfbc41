/** The 12 words in a numbered grid, in the order they must be written down and typed back. */
export function BackupPhrase({ mnemonic }: { mnemonic: string }) {
  return (
    <ol aria-label="Backup phrase" className="grid grid-cols-2 gap-2 sm:grid-cols-3">
      {mnemonic.split(' ').map((word, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: a word may repeat, so its position is its identity; the list never reorders
          key={index}
          className="flex items-baseline gap-2 rounded-md border border-border bg-background px-3 py-2 font-mono text-sm"
        >
          <span aria-hidden="true" className="w-5 text-right text-muted text-xs">
            {index + 1}
          </span>
          <span>{word}</span>
        </li>
      ))}
    </ol>
  );
}
