import type { VmOutcome } from './check-worker-protocol.js';
import { ACTUAL_PREVIEW_CHARS, type Check, type CheckResult } from './types.js';

/** Characters of each JSON shown in a wrong-result message. */
const MESSAGE_PREVIEW_CHARS = 120;

/**
 * Turns what a check produced in the VM into its result: a failure stays a failure; a value
 * passes when it deep-equals the expected value under JSON semantics, else it is a
 * `wrong-result` with a preview of the actual value.
 */
export function judgeOutcome(check: Check, outcome: VmOutcome): CheckResult {
  const spent = { durationMs: outcome.durationMs, ...(outcome.cpuMs === undefined ? {} : { cpuMs: outcome.cpuMs }) };
  if (outcome.kind === 'failure') {
    return { id: check.id, passed: false, failure: outcome.failure, message: outcome.message, ...spent };
  }
  const actual: unknown = outcome.json === undefined ? undefined : JSON.parse(outcome.json);
  // The expected value goes through JSON too, so `undefined` members and -0 compare as JSON does.
  const expectedJson = JSON.stringify(check.expected) as string | undefined;
  const expected: unknown = expectedJson === undefined ? undefined : JSON.parse(expectedJson);
  if (jsonEqual(actual, expected)) return { id: check.id, passed: true, ...spent };
  return {
    id: check.id,
    passed: false,
    failure: 'wrong-result',
    message: `expected ${preview(expectedJson, MESSAGE_PREVIEW_CHARS)}, got ${preview(outcome.json, MESSAGE_PREVIEW_CHARS)}`,
    actual: outcome.json === undefined || outcome.json.length <= ACTUAL_PREVIEW_CHARS ? actual : preview(outcome.json, ACTUAL_PREVIEW_CHARS),
    ...spent,
  };
}

function preview(json: string | undefined, chars: number): string {
  if (json === undefined) return 'undefined';
  return json.length <= chars ? json : `${json.slice(0, chars)}… (${json.length} chars of JSON)`;
}

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
