// A table cell of the settings pages' lists.
import type { ReactNode } from 'react';

/**
 * One cell with one child, so that the narrow layout can put its label beside it. `focusId` makes the
 * cell a target for focus (the outcome of an action shown in it).
 */
export function Cell({ label, children, focusId }: { label: string; children: ReactNode; focusId?: string }) {
  return (
    <td data-label={label} id={focusId} tabIndex={focusId ? -1 : undefined}>
      <div>{children}</div>
    </td>
  );
}
