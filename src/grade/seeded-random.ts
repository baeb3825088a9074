import type { Random } from '../runners/index.js';

/** mulberry32: a small seeded generator of integers below n, so a draw can be repeated (tripwire groups' odds, tests). */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}
