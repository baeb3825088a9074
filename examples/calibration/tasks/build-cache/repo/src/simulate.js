import { KeyRing } from './keys.js';
import { LruStore } from './lru-store.js';

/**
 * Replays build requests against an empty cache.
 *
 * @param {{ budget: number, requests: Array<{ target: string, inputHash: string, deps?: string[], size: number }> }} input
 * @returns {{ results: Array<{ decision: 'hit' | 'miss' | 'rebuild', cached: boolean, evicted: string[] }>,
 *   cache: Array<{ target: string, size: number }>, used: number }}
 */
export function simulate(input) {
  const keys = new KeyRing();
  const store = new LruStore(input.budget);
  const results = input.requests.map((request) => {
    keys.declare(request.target, request.inputHash, request.deps ?? []);
    const key = keys.keyOf(request.target);
    if (store.has(key)) {
      store.touch(key);
      return { decision: 'hit', cached: true, evicted: [] };
    }
    const decision = store.holdsTarget(request.target) ? 'rebuild' : 'miss';
    const evicted = store.store(key, request.target, request.size);
    return { decision, cached: evicted !== null, evicted: evicted ?? [] };
  });
  return { results, cache: store.list(), used: store.used };
}
