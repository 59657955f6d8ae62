// A point in time as the settings pages show it: UTC, with the exact instant in the title. `seconds`
// where two moments minutes apart must be told apart (a request log, the end of a rotation overlap).
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const dateTimeSeconds = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
const dateOnly = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

export function When({ at, dayOnly = false, seconds = false, empty }: { at: Date | null; dayOnly?: boolean; seconds?: boolean; empty: string }) {
  if (!at) return <span className="muted">{empty}</span>;
  return (
    <time dateTime={at.toISOString()} title={at.toISOString()}>
      {(dayOnly ? dateOnly : seconds ? dateTimeSeconds : dateTime).format(at)}
    </time>
  );
}
