// How many MCP tool calls a key or a connected app made (within the record's retention), with the
// time of the last one in the title.
import type { CallCount } from '@/lib/usage/tool-calls';

export function ToolCalls({ count }: { count: CallCount | undefined }) {
  if (!count) return <span className="muted">None</span>;
  return <span title={`Last call ${count.lastCallAt.toISOString()}`}>{count.calls.toLocaleString('en-GB')}</span>;
}
