// A point in time as the settings pages show it: UTC, with the exact instant in the title.
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

export function When({ at, dayOnly = false, empty }: { at: Date | null; dayOnly?: boolean; empty: string }) {
  if (!at) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={at.toISOString()} title={at.toISOString()}>
      {(dayOnly ? dateOnly : dateTime).format(at)}
    </time>
  );
}
