import type { Random } from '../runners/index.js';

/** A seeded random source (mulberry32), so a draw can be repeated. Test support, left out of the build. */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}
