'use client';
import { useState } from 'react';

type Copied = 'idle' | 'copied' | 'failed';

/**
 * A "Copy" button for a snippet. Its accessible name says what it copies ("Copy the Cursor
 * configuration") and starts with its visible text; the outcome is a status message beside it, read
 * out politely, so the button's own text never changes under the person using it.
 */
export function CopyButton({ text, what }: { text: string; what: string }) {
  const [copied, setCopied] = useState<Copied>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  }
  return (
    <span className="copy">
      <button type="button" className="button" onClick={copy}>
        Copy<span className="sr-only"> the {what}</span>
      </button>
      <span role="status" className={copied === 'failed' ? 'copy-failed' : 'copy-done'}>
        {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Could not copy: select the text and copy it.' : ''}
      </span>
    </span>
  );
}
