import type { LeaderboardRun } from '../../types.js';
import { compareText } from '../common/compare-text.js';
import type { MixedProblem } from './leaderboard-view.js';

const NONE = '(none)';

/** Runtime keys only model agents' runs carry (their model API and price source): runs without one do not conflict. */
const MODEL_ONLY = new Set(['upstream', 'prices']);

/** Toolchains a bake records only when its suite's tasks use them: a run of a bake that did not ask conflicts with nothing. */
const TOOLCHAINS = new Set(['python', 'cargo']);

/**
 * Find what makes a set of runs incomparable (DESIGN.md §6: numbers from different suite hashes,
 * controls, levels or runtimes are never mixed). Seeds are not checked: a bake may plan several
 * seeds on purpose. Also flags an agent id recorded with different harness, version, model or
 * effort, since its leaderboard line could only show one of them, and runs of one harness whose
 * effort levels were resolved from different model catalogs (`catalog.<harness>`, by digest).
 *
 * @returns one problem per field with more than one distinct value, sorted by field; empty when
 *   the runs are comparable
 */
export function detectMixed(runs: readonly LeaderboardRun[]): MixedProblem[] {
  const fields = new Map<string, Set<string>>();
  const see = (field: string, value: string): void => {
    const values = fields.get(field) ?? new Set<string>();
    values.add(value);
    fields.set(field, values);
  };
  // runs read from one store share their runtime objects: the keys of each distinct one
  const runtimes = new Set(runs.map((run) => run.runtime));
  const runtimeKeys = new Set([...runtimes].flatMap((runtime) => Object.keys(runtime)));
  // runs read from one store share their runtime and agent objects: each is looked at once (per voidness)
  const seenRuntime = [new WeakSet<object>(), new WeakSet<object>()] as const;
  const seenAgent = new WeakSet<object>();
  // runs of one bake follow each other with the same suite, controls and level: each run whose are the previous one's adds nothing
  let previous: LeaderboardRun | undefined;
  for (const run of runs) {
    if (previous === undefined || run.suiteId !== previous.suiteId || run.suiteHash !== previous.suiteHash ||
      run.controlsDigest !== previous.controlsDigest || run.level !== previous.level) {
      see('suiteId', run.suiteId);
      see('suiteHash', run.suiteHash);
      see('controlsDigest', run.controlsDigest);
      see('level', run.level === null ? NONE : String(run.level));
    }
    previous = run;
    // levels resolved from another catalog of the same harness: as incomparable as another runtime
    // (runs stored before catalogs were recorded, and void runs that lack one, conflict with nothing)
    if (run.effortCatalog) see(`catalog.${run.agent.harness}`, run.effortCatalog.digest.slice(0, 12));
    const runtimeSeen = seenRuntime[run.outcome.kind === 'void' ? 1 : 0];
    if (!runtimeSeen.has(run.runtime)) {
      runtimeSeen.add(run.runtime);
      seeRuntime(run);
    }
    if (!seenAgent.has(run.agent)) {
      seenAgent.add(run.agent);
      const { harness, version, model, effort } = run.agent;
      see(`agent:${run.agent.id}`, JSON.stringify({ harness, version, model, effort }));
    }
  }
  function seeRuntime(run: LeaderboardRun): void {
    for (const key of runtimeKeys) {
      // A void run may lack what only work records (results stored before void records carried
      // every runtime field): a key it lacks conflicts with nothing. A value it has still counts.
      if (run.runtime[key] === undefined && (MODEL_ONLY.has(key) || TOOLCHAINS.has(key) || run.outcome.kind === 'void')) continue;
      see(`runtime.${key}`, run.runtime[key] ?? NONE);
    }
  }
  return [...fields]
    .filter(([, values]) => values.size > 1)
    .map(([field, values]) => ({ field, values: [...values].sort(compareText) }))
    .sort((a, b) => compareText(a.field, b.field));
}
