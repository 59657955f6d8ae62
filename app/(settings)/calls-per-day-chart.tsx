// Tool calls per day as a bar chart drawn on the server (SVG, no script): one bar per day, oldest on
// the left. It is a picture of the table that accompanies it, which holds the numbers.
import type { CallsPerDay } from '@/lib/usage/tool-calls';

const WIDTH = 600;
const HEIGHT = 140;
const AXIS = 18;
const GAP = 2;

export function CallsPerDayChart({ calls }: { calls: CallsPerDay }) {
  // At least 1, so that a window without calls draws no bar rather than dividing by zero.
  const max = Math.max(1, ...calls.days.map((entry) => entry.total));
  const total = calls.days.reduce((sum, entry) => sum + entry.total, 0);
  const slot = WIDTH / calls.days.length;
  const plot = HEIGHT - AXIS;
  const first = calls.days[0]?.day ?? '';
  const last = calls.days.at(-1)?.day ?? '';
  return (
    <svg
      className="calls-chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`Bar chart of tool calls per day from ${first} to ${last}: ${total} in all, at most ${total === 0 ? 0 : max} in a day. The table has the numbers.`}
    >
      <line x1={0} y1={plot} x2={WIDTH} y2={plot} className="calls-axis" />
      {calls.days.map((entry, index) => {
        const height = (entry.total / max) * (plot - 4);
        return <rect key={entry.day} x={index * slot + GAP / 2} y={plot - height} width={slot - GAP} height={height} className="calls-bar" />;
      })}
      <text x={0} y={HEIGHT - 4} className="calls-label">{first}</text>
      <text x={WIDTH} y={HEIGHT - 4} textAnchor="end" className="calls-label">{last}</text>
      <text x={0} y={10} className="calls-label">{total === 0 ? 0 : max}</text>
    </svg>
  );
}
