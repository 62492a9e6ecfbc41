// React 19 hoists <title> into the document head, so each page names its own tab.
export function PageTitle({ title }: { title: string }) {
  return <title>{`${title} | Covenant`}</title>;
}
