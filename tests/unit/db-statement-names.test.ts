// The names under which `sql` prepares its statements: one per text, a bounded number of texts.
import { describe, expect, it } from 'vitest';
import { StatementNames } from '@/lib/db';

describe('StatementNames', () => {
  it('gives a text the same name on every call and different texts different names', () => {
    const names = new StatementNames(10);
    const first = names.nameOf('SELECT 1');
    expect(first).toMatch(/^s_[\w-]{43}$/);
    expect(names.nameOf('SELECT 1')).toBe(first);
    expect(names.nameOf('SELECT 2')).not.toBe(first);
  });

  it('names are valid PostgreSQL identifiers, which are cut at 63 bytes', () => {
    const name = new StatementNames(1).nameOf('SELECT 1')!;
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
  });

  it('names at most `max` texts: later ones run unnamed, earlier ones keep their names', () => {
    const names = new StatementNames(3);
    const kept = ['a', 'b', 'c'].map((text) => names.nameOf(`SELECT '${text}'`));
    expect(kept.every((name) => name !== undefined)).toBe(true);
    expect(names.nameOf(`SELECT 'd'`)).toBeUndefined();
    expect(names.nameOf(`SELECT 'e'`)).toBeUndefined();
    expect(['a', 'b', 'c'].map((text) => names.nameOf(`SELECT '${text}'`))).toEqual(kept);
  });
});
