import type { AgentInfo, Outcome } from '../types.js';

/** Equal texts and outcomes as one value each (see {@link sharedValues}). */
export interface SharedValues {
  text(value: string): string;
  outcome(kind: Outcome['kind'], reason: string | null, detail: string | null): Outcome;
}

/**
 * JSON.parse that parses each distinct text once and hands out the same (frozen) value for
 * equal texts: 100,000 runs of one bake carry a handful of agent, runtime, flags and catalog
 * texts, and parsing each row's copy again is most of a report's time and memory.
 */
export function sharedParse(): <T>(text: string) => T {
  const seen = new Map<string, unknown>();
  return <T>(text: string): T => {
    let value = seen.get(text);
    if (value === undefined) {
      value = deepFreeze(JSON.parse(text));
      seen.set(text, value);
    }
    return value as T;
  };
}

/**
 * One value for equal texts and outcomes: the runs of a bake share a handful of task ids, suite
 * hashes and outcomes, and the report's maps and sets compare a shared string by its address
 * instead of its characters (and keep one copy of it, not 100,000).
 */
export function sharedValues(): SharedValues {
  const texts = new Map<string, string>();
  const outcomes = new Map<string, Outcome>();
  return {
    text: (value) => {
      const seen = texts.get(value);
      if (seen !== undefined) return seen;
      texts.set(value, value);
      return value;
    },
    outcome: (kind, reason, detail) => {
      const key = kind === 'solved' ? kind : `${kind}\u0000${reason}\u0000${detail ?? ''}`;
      let outcome = outcomes.get(key);
      if (outcome === undefined) {
        outcome = Object.freeze(kind === 'solved' ? { kind: 'solved' } : ({ kind, reason, ...(detail ? { detail } : {}) } as Outcome));
        outcomes.set(key, outcome);
      }
      return outcome;
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The fields that name a run's suite, task and agent, as every read of runs builds them (shared values for equal texts). */
export function runIdentity(
  share: SharedValues,
  parse: <T>(text: string) => T,
  row: { readonly suiteId: string; readonly suiteHash: string; readonly controlsDigest: string; readonly task: string; readonly agentJson: string },
): { readonly suiteId: string; readonly suiteHash: string; readonly controlsDigest: string; readonly task: string; readonly agent: AgentInfo } {
  return { suiteId: share.text(row.suiteId), suiteHash: share.text(row.suiteHash), controlsDigest: share.text(row.controlsDigest), task: share.text(row.task), agent: parse<AgentInfo>(row.agentJson) };
}
