import { describe, expect, it } from 'vitest';
import { compareLocks } from './compare-lock.js';
import type { SuiteLock } from './lock.js';

const HASH = 'a'.repeat(64);
const lock = (tasks: SuiteLock['tasks']): SuiteLock => ({ schemaVersion: 1, suite: { id: 's', hash: HASH }, tasks });
const tests = (f2p: string[], p2p: string[]) => ({ admitted: true as const, orders: [{ order: 1, failToPass: f2p, passToPass: p2p }] });
const checks = (digests: Record<string, string>) => ({ admitted: true as const, orders: [{ order: 1, failToPass: [], passToPass: [], checks: digests }] });

describe('compareLocks', () => {
  it('finds no difference between equal verdicts', () => {
    const a = lock({ t: tests(['x'], ['y']), r: { admitted: false, reason: 'flaky: two gold runs disagree on y' }, c: checks({ '1:1': 'd1' }) });
    expect(compareLocks(a, structuredClone(a))).toEqual([]);
  });

  it('names the task and says how its verdict changed', () => {
    const before = lock({ a: tests(['x'], []), b: { admitted: false, reason: 'old reason' }, c: { admitted: false, reason: 'same' }, d: { admitted: false, reason: 'was' } });
    const after = lock({ a: { admitted: false, reason: 'the gold scores 30/32 at seed 1, level 3 in all 2 attempts: gen-3 (timeout: over the 500 ms CPU limit)' }, b: tests(['x'], []), c: { admitted: false, reason: 'same' }, d: { admitted: false, reason: 'now' } });
    expect(compareLocks(before, after)).toEqual([
      { task: 'a', change: 'was admitted, now rejected: the gold scores 30/32 at seed 1, level 3 in all 2 attempts: gen-3 (timeout: over the 500 ms CPU limit)' },
      { task: 'b', change: 'was rejected (old reason), now admitted' },
      { task: 'd', change: 'still rejected, for another reason: was "was", now "now"' },
    ]);
  });

  it('takes a task flaky again for the same reason, whichever tests flapped this time', () => {
    const flaky = (ids: string) => lock({ t: { admitted: false, reason: `flaky on the unchanged repo: its runs baseline and baseline-2 disagree on ${ids} (see their logs)` } });
    expect(compareLocks(flaky('a (pass, then fail)'), flaky('b (fail, then pass), c (pass, then missing)'))).toEqual([]);
    const clock = (ids: string) => lock({ t: { admitted: false, reason: `flaky: the first and a third gold run disagree on ${ids}; the run under a shifted clock changed them too, so the clock is not what changes them` } });
    expect(compareLocks(clock('a (pass, then fail)'), clock('b (fail, then pass)'))).toEqual([]);
    // but flaky where it was not is another reason
    const gold = lock({ t: { admitted: false, reason: 'flaky: the gold runs gold-1 and gold-2 disagree on a (pass, then fail) (see their logs)' } });
    expect(compareLocks(flaky('a (pass, then fail)'), gold)).toHaveLength(1);
  });

  it('says when the date check moved the time zone only on one side', () => {
    const zoneOnly = { ...tests(['x'], []), clockNotMoved: "Python's time.sleep fails" };
    expect(compareLocks(lock({ t: tests(['x'], []) }), lock({ t: zoneOnly }))).toEqual([
      { task: 't', change: "its date check moved the clock and the time zone before, moved the time zone only (Python's time.sleep fails) now" },
    ]);
    expect(compareLocks(lock({ t: zoneOnly }), lock({ t: structuredClone(zoneOnly) }))).toEqual([]);
  });

  it('lists test ids gained and lost, per order', () => {
    const before = lock({ t: tests(['f1', 'f2'], ['p1']) });
    const after = lock({ t: tests(['f2', 'f3'], ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']) });
    expect(compareLocks(before, after)).toEqual([
      { task: 't', change: 'order 1: fail-to-pass gained f3' },
      { task: 't', change: 'order 1: fail-to-pass lost f1' },
      { task: 't', change: 'order 1: pass-to-pass gained p2, p3, p4, p5, p6 and 1 more' },
    ]);
  });

  it('says at which seed and level the generated checks changed, appeared or went', () => {
    const before = lock({ c: checks({ '1:1': 'a'.repeat(64), '1:2': 'b'.repeat(64) }) });
    const after = lock({ c: checks({ '1:1': 'c'.repeat(64), '1:3': 'd'.repeat(64) }) });
    expect(compareLocks(before, after)).toEqual([
      { task: 'c', change: `order 1: the generated checks at seed 1, level 1 changed (digest ${'a'.repeat(12)} → ${'c'.repeat(12)})` },
      { task: 'c', change: `order 1: seed 1, level 2 is no longer validated (its checks had digest ${'b'.repeat(12)})` },
      { task: 'c', change: `order 1: checks at seed 1, level 3 are new (digest ${'d'.repeat(12)})` },
    ]);
  });

  it('reports tasks and orders only one side has', () => {
    const before = lock({ gone: tests(['x'], []), t: { admitted: true, orders: [{ order: 1, failToPass: ['x'], passToPass: [] }, { order: 2, failToPass: ['y'], passToPass: [] }] } });
    const after = lock({ t: tests(['x'], []), added: { admitted: false, reason: 'r' } });
    expect(compareLocks(before, after)).toEqual([
      { task: 't', change: 'order 2: in the lock, no longer validated' },
      { task: 'added', change: 'not in the lock; now rejected: r' },
      { task: 'gone', change: 'in the lock (admitted), no longer validated' },
    ]);
  });
});
