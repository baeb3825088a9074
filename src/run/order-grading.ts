import type { TaskLock, Order, Task } from '../suite/index.js';
import type { Outcome } from '../types.js';
import type { GeneratedSet } from './generate-checks.js';
import type { OrderGrading } from './grade-order.js';

export interface OrderGradingOptions {
  readonly task: Task;
  readonly lock: Extract<TaskLock, { admitted: true }>;
  readonly order: Order;
  /** Generated checks of an order at the run's seed and level (checks-graded tasks). */
  readonly checksFor: (order: Order) => Promise<GeneratedSet>;
  readonly seed: number | null;
  readonly level: number | null;
}

/**
 * How to grade `order` — the hidden tests and the test ids the lock expects, or the generated
 * checks — or why the run is void (the generated checks differ from those validate admitted).
 * The same rule as a run's grading (`gradingFor` in run-task.ts), so `bakeoff verify` re-grades
 * alike.
 */
export async function orderGrading(options: OrderGradingOptions): Promise<OrderGrading | { void: Outcome }> {
  const { task, order } = options;
  const locked = options.lock.orders.find((o) => o.order === order.index);
  if (task.manifest.grading === 'checks' && task.manifest.checks) {
    const generated = await options.checksFor(order);
    const key = `${options.seed}:${options.level}`;
    const expectedDigest = locked?.checks?.[key];
    if (expectedDigest && expectedDigest !== generated.digest) {
      return { void: { kind: 'void', reason: 'oracle-changed', detail: `order ${order.index}: checks at seed ${options.seed}, level ${options.level} differ from the ones validate admitted` } };
    }
    return { kind: 'checks', entry: task.manifest.checks.entry, sourceDir: task.manifest.checks.sourceDir, generated };
  }
  return {
    kind: 'tests',
    test: task.manifest.test,
    expected: locked ?? { failToPass: [], passToPass: [] },
    hiddenDirs: task.orders.filter((o) => o.index <= order.index).map((o) => o.hiddenDir),
  };
}
