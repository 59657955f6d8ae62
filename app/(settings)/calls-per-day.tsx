// A connected app's tool calls per day and tool, as a table (the numbers, for everyone and for screen
// readers). Days without calls are left out of the table; the chart above it shows every day.
import type { CallsPerDay } from '@/lib/usage/tool-calls';

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

export function CallsPerDayTable({ calls, caption }: { calls: CallsPerDay; caption: string }) {
  const active = calls.days.filter((entry) => entry.total > 0).reverse();
  return (
    <div className="table-box" role="region" aria-label="Tool calls per day, scrolls sideways when wide" tabIndex={0}>
      <table className="calls-table">
        <caption className="table-note">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            {calls.tools.map((tool) => (
              <th scope="col" key={tool}><code>{tool}</code></th>
            ))}
            <th scope="col">All tools</th>
          </tr>
        </thead>
        <tbody>
          {active.map((entry) => (
            <tr key={entry.day}>
              <th scope="row"><time dateTime={entry.day}>{day.format(new Date(`${entry.day}T00:00:00Z`))}</time></th>
              {calls.tools.map((tool) => (
                <td key={tool}>{entry.byTool[tool] ?? 0}</td>
              ))}
              <td>{entry.total}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
