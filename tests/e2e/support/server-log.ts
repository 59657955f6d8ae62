// What the app logged while a test step ran. Each worker's server writes its output to a file of its
// own (E2E_SERVER_LOG, ./fixtures.ts) itself, so what it logged before answering a request is in the
// file by the time the answer arrives.
import { open, stat } from 'node:fs/promises';

function logFile(): string {
  const file = process.env.E2E_SERVER_LOG;
  if (!file) throw new Error('E2E_SERVER_LOG is not set: the worker fixture sets it when it starts the app');
  return file;
}

/** Runs `step` and returns it together with everything the server wrote meanwhile. */
export async function loggedDuring<T>(step: () => Promise<T>): Promise<{ result: T; log: string }> {
  const file = logFile();
  const start = (await stat(file)).size;
  const result = await step();
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    return { result, log: buffer.toString('utf8') };
  } finally {
    await handle.close();
  }
}

export { ERROR_IN_LOG } from '../../support/log-lines';
