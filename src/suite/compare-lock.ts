import type { SuiteLock, TaskLock } from './lock.js';

/** How one task's admission differs from what the lock recorded. */
export interface LockDifference {
  readonly task: string;
  /** What changed, in words: the old and the new verdict, ids or digests. */
  readonly change: string;
}

/** Ids listed at most in one difference; the rest are counted. */
const MAX_IDS = 5;

/**
 * Compares fresh verdicts with a lock's, task by task (in the fresh lock's order, then tasks
 * only the old lock has): admitted or not, the reason of a rejection, per order the
 * fail-to-pass and pass-to-pass ids and the check digest per seed and level, and whether the
 * date check moved the clock. Pure.
 * @returns one entry per difference; empty when the verdicts are the same.
 */
export function compareLocks(before: SuiteLock, after: SuiteLock): LockDifference[] {
  const differences: LockDifference[] = [];
  for (const [task, now] of Object.entries(after.tasks)) {
    const was = before.tasks[task];
    const add = (change: string) => differences.push({ task, change });
    if (!was) add(`not in the lock; now ${verdict(now)}`);
    else if (was.admitted && !now.admitted) add(`was admitted, now rejected: ${now.reason}`);
    else if (!was.admitted && now.admitted) add(`was rejected (${was.reason}), now admitted`);
    else if (!was.admitted && !now.admitted) {
      if (stableReason(was.reason) !== stableReason(now.reason)) add(`still rejected, for another reason: was "${was.reason}", now "${now.reason}"`);
    } else if (was.admitted && now.admitted) {
      // a date check that moved the clock and one that could move the time zone only are not the same check
      if (was.clockNotMoved !== now.clockNotMoved) add(`its date check ${dateCheck(was.clockNotMoved)} before, ${dateCheck(now.clockNotMoved)} now`);
      compareOrders(was.orders, now.orders, add);
    }
  }
  for (const task of Object.keys(before.tasks)) {
    if (!Object.hasOwn(after.tasks, task)) differences.push({ task, change: `in the lock (${verdict(before.tasks[task]!)}), no longer validated` });
  }
  return differences;
}

type OrderLock = Extract<TaskLock, { admitted: true }>['orders'][number];

function compareOrders(was: readonly OrderLock[], now: readonly OrderLock[], add: (change: string) => void): void {
  const before = new Map(was.map((o) => [o.order, o]));
  for (const order of now) {
    const old = before.get(order.order);
    const where = `order ${order.order}: `;
    if (!old) {
      add(`${where}not in the lock`);
      continue;
    }
    for (const [name, a, b] of [['fail-to-pass', old.failToPass, order.failToPass], ['pass-to-pass', old.passToPass, order.passToPass]] as const) {
      const gained = b.filter((id) => !a.includes(id));
      const lost = a.filter((id) => !b.includes(id));
      if (gained.length) add(`${where}${name} gained ${ids(gained)}`);
      if (lost.length) add(`${where}${name} lost ${ids(lost)}`);
    }
    const keys = new Set([...Object.keys(old.checks ?? {}), ...Object.keys(order.checks ?? {})]);
    for (const key of [...keys].sort()) {
      const [a, b] = [old.checks?.[key], order.checks?.[key]];
      if (a === b) continue;
      const [seed, level] = key.split(':');
      const at = `seed ${seed}, level ${level}`;
      if (a === undefined) add(`${where}checks at ${at} are new (digest ${short(b)})`);
      else if (b === undefined) add(`${where}${at} is no longer validated (its checks had digest ${short(a)})`);
      else add(`${where}the generated checks at ${at} changed (digest ${short(a)} → ${short(b)})`);
    }
  }
  for (const order of was) if (!now.some((o) => o.order === order.order)) add(`order ${order.order}: in the lock, no longer validated`);
}

/**
 * A rejection's reason without what changes by chance from one validation to the next: which
 * tests a flaky task's runs happened to disagree on (`… disagree on a (pass, then fail)`). A task
 * flaky again is rejected for the same reason, whichever tests flapped this time. Pure.
 */
export function stableReason(reason: string): string {
  return reason.replace(/disagree on [^;]*/g, 'disagree on …');
}

function verdict(task: TaskLock): string {
  return task.admitted ? 'admitted' : `rejected: ${task.reason}`;
}

function ids(list: readonly string[]): string {
  const shown = list.slice(0, MAX_IDS).join(', ');
  return list.length > MAX_IDS ? `${shown} and ${list.length - MAX_IDS} more` : shown;
}

function short(digest: string | undefined): string {
  return (digest ?? '').slice(0, 12);
}

function dateCheck(clockNotMoved: string | undefined): string {
  return clockNotMoved === undefined ? 'moved the clock and the time zone' : `moved the time zone only (${clockNotMoved})`;
}
