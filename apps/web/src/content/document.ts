// The shape of the written help content (documentation, guides, FAQ): plain data, so the pages
// render it and the help center's search reads the very same words.

/** A paragraph, or a list of points. */
export type Block = string | { list: string[] } | { steps: string[] };

export type DocumentSection = {
  id: string;
  title: string;
  blocks: Block[];
};

export function blockText(block: Block): string {
  if (typeof block === 'string') return block;
  return 'list' in block ? block.list.join(' ') : block.steps.join(' ');
}
