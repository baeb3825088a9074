import os from 'node:os';
import { describeHostLoad, hasRoom, isStopping, quietHeld, readHostLoad, whenNotQuiet } from '../util/index.js';

/** Items at once: a number, or `auto` (decision 011): one more only while the machine has room, measured. */
export type Concurrency = number | 'auto';

/** Most items `auto` runs at once: the machine's CPUs (at least 2). */
export function autoConcurrencyMax(): number {
  return Math.max(2, os.availableParallelism());
}

export interface PoolOptions {
  /** With `auto`: whether the machine has room for one more item, and why not (default: `/proc/stat` runnable tasks < CPUs). */
  readonly room?: () => Promise<{ readonly room: boolean; readonly why: string }>;
  /** With `auto`: how long to wait before measuring again when there was no room (default 2 s; an item ending also wakes it). */
  readonly recheckMs?: number;
  /** Told when an item is held back (`why`), and with null when items start again. */
  readonly onHold?: (why: string | null) => void;
}

/**
 * Runs `work` over `items` with at most `concurrency` at once. With `auto`, the first item
 * starts at once and each further one (up to {@link autoConcurrencyMax}) only once the machine
 * has room, measured before each start; an item ending wakes the check. No item starts while a
 * quiet hold is held (a starved test run being re-run alone, `holdQuiet`). When one item throws,
 * no new item is started; the ones already running finish, and then the first error is thrown.
 * Nor is one started once bakeoff is stopping (SIGINT).
 */
export async function runPool<T>(items: readonly T[], concurrency: Concurrency, work: (item: T) => Promise<void>, options: PoolOptions = {}): Promise<void> {
  const limit = Math.max(1, concurrency === 'auto' ? autoConcurrencyMax() : concurrency);
  const room = options.room ?? measuredRoom;
  let next = 0;
  let failure: { readonly error: unknown } | null = null;
  let held: string | null = null;
  const running = new Set<Promise<void>>();
  const hold = (why: string | null): void => {
    if (why === held) return;
    held = why;
    options.onHold?.(why);
  };
  const canStart = (): boolean => failure === null && next < items.length && !isStopping();
  while (canStart()) {
    if (running.size >= limit) {
      await Promise.race(running);
      continue;
    }
    if (running.size > 0) {
      if (quietHeld()) {
        // a re-run alone holds the machine: nothing new until it is done
        hold('a starved test run is being re-run alone');
        await Promise.race([whenNotQuiet(), ...running]);
        continue;
      }
      if (concurrency === 'auto') {
        const measured = await room();
        if (!measured.room) {
          hold(measured.why);
          await Promise.race([new Promise((r) => setTimeout(r, options.recheckMs ?? 2000)), ...running]);
          continue;
        }
      }
    }
    hold(null);
    const item = items[next++]!;
    const done: Promise<void> = work(item)
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => running.delete(done));
    running.add(done);
  }
  await Promise.all(running);
  if (failure !== null) throw (failure as { readonly error: unknown }).error;
}

async function measuredRoom(): Promise<{ room: boolean; why: string }> {
  const load = await readHostLoad();
  return { room: hasRoom(load), why: `the machine has no room for another run (${describeHostLoad(load)})` };
}
