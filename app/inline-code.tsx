// Text written with `backticks` around code (the error registry, the query rules, the client guides),
// shown with those parts as <code> rather than with the backticks stripped.
export function InlineCode({ text }: { text: string }) {
  return <>{text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}</>;
}
