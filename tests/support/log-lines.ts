// Reading a server's log (lib/telemetry/logger.ts: one JSON object a line) in tests.

export interface LogEntry {
  level?: string;
  msg?: string;
  [field: string]: unknown;
}

/**
 * The complete lines of `output`, parsed: a line that is not JSON (Node.js's own warnings on stderr)
 * as `{ msg: line }`. A last line still being written is left for the next read.
 */
export function logEntries(output: string): LogEntry[] {
  return output
    .slice(0, output.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      try {
        return JSON.parse(line) as LogEntry;
      } catch {
        return { msg: line };
      }
    });
}

/**
 * What the server said, one message a line, without the line each request gets (`msg: "request"`):
 * the text tests search for a message.
 */
export function logMessages(output: string): string {
  return logEntries(output)
    .filter((entry) => entry.msg !== 'request')
    .map((entry) => `${entry.msg ?? ''}\n`)
    .join('');
}

/**
 * A line of a stack trace or an error's name in what a server wrote: in a plain line (Node.js's own
 * output on stderr) or inside a JSON line, where a logged error's stack has its line breaks escaped.
 */
export const ERROR_IN_LOG = /^\s+at |\\n\s+at |Error/m;
