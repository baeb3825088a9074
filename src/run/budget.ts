/** Agent time left to spend (sessions only, never grading); shared by the runs of its scope. */
export interface Budget {
  /** Milliseconds left, Infinity when unlimited. */
  remainingMs(): number;
  spend(ms: number): void;
}

export function createBudget(totalSec: number | null): Budget {
  let left = totalSec === null ? Infinity : totalSec * 1000;
  return {
    remainingMs: () => Math.max(0, left),
    spend: (ms) => {
      left -= ms;
    },
  };
}
