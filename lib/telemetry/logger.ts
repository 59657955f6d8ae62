// The process's one logger: JSON lines on stdout (pino), one object a line, for a log shipper to read;
// pretty, coloured lines instead when stdout is a terminal (`npm run demo` in a shell). Every line
// carries the time, the level and the instance (INSTANCE_ID, else host:pid), so that the lines of
// several instances can be told apart once gathered.
//
// Shared by the whole process (lib/process-wide.ts): the production server (scripts/server.mjs, plain
// JavaScript that Node runs without a bundler) and every Next.js bundle of lib/ get the same logger.
// This file imports packages and lib/process-wide.ts only, so that Node can run it as it is.
import { hostname } from 'node:os';
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { processWide } from '../process-wide.ts';

/** `LOG_FORMAT`: `json` or `pretty`; unset: pretty on a terminal, JSON otherwise. */
function prettyWanted(): boolean {
  const format = process.env.LOG_FORMAT;
  return format === 'pretty' || (format !== 'json' && process.stdout.isTTY === true);
}

function createLogger(): Logger {
  const options: pino.LoggerOptions = {
    level: process.env.LOG_LEVEL ?? 'info',
    base: { instance: process.env.INSTANCE_ID ?? `${hostname()}:${process.pid}` },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Belt and braces: no line may carry a credential, whatever object a caller hands in.
    redact: { paths: ['authorization', 'headers.authorization', 'headers.cookie', 'token', 'key', 'secret', 'password'], censor: '[redacted]' },
  };
  // pino-pretty as a stream in this thread (not a transport's worker): a terminal's few lines a second.
  if (prettyWanted()) {
    const format = { colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'instance,method,path,status,durationMs' };
    // A request reads `request GET /api/v1/me 200 3.2 ms`, its other fields after it.
    return pino(options, pretty({ ...format, messageFormat: '{msg}{if method} {method} {path} {status} {durationMs} ms{end}' }));
  }
  // The level's name ("warn"), not pino's number: what a reader greps for.
  return pino({ ...options, formatters: { level: (label) => ({ level: label }) } });
}

const sharedLogger = processWide('logger', createLogger);

/** The process's logger. */
export function logger(): Logger {
  return sharedLogger();
}
