import type { Outcome } from '../types.js';

/** Keeps the first void, else the first failure: later orders never hide an earlier problem. */
export function worstOutcome(current: Outcome, next: Outcome): Outcome {
  if (current.kind === 'void') return current;
  if (next.kind === 'void') return next;
  return current.kind === 'failed' ? current : next;
}
