// readBoundedBody: a body read whole, or null for one over its size, and for one whose connection
// closed before it ended (no error escapes to be logged with a stack).
import { describe, expect, it } from 'vitest';
import { readBoundedBody } from '@/lib/http/body';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('readBoundedBody', () => {
  it('reads a body that arrives whole', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('email=a'));
        controller.enqueue(bytes('&password=b'));
        controller.close();
      },
    });
    expect(await readBoundedBody(body)).toBe('email=a&password=b');
  });

  it('is null for a body over its size', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('x'.repeat(11)));
        controller.close();
      },
    });
    expect(await readBoundedBody(body, 10)).toBeNull();
  });

  it('is null for a body whose connection closed before it ended', async () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes('email=a'));
        controller.error(aborted);
      },
    });
    expect(await readBoundedBody(body)).toBeNull();
  });
});
