/**
 * Deep equality of two JSON values (as `JSON.parse` returns them): object key order does not
 * matter, array order does. Iterative, because a result may nest deeper than the host's stack.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const pending: Array<[unknown, unknown]> = [[a, b]];
  for (let pair = pending.pop(); pair; pair = pending.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      x.forEach((item, i) => pending.push([item, y[i]]));
      continue;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    const keys = Object.keys(xo);
    if (keys.length !== Object.keys(yo).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(yo, key)) return false;
      pending.push([xo[key], yo[key]]);
    }
  }
  return true;
}
