import type { RunRecord } from '../../types.js';
import { compareText } from '../common/compare-text.js';
import { slugify } from './escape-html.js';
import type { SiteSuite } from './site-input.js';
import { createTaskNames, type TaskNames } from './task-labels.js';

/** What the site calls tasks and runs: the one place that decides what a page may name. */
export interface SiteNames {
  readonly tasks: TaskNames;
  /**
   * The run's name, also its page's file name: the run id on a private site; on a public one
   * `task-<number>-<agent slug>-<replay>`, because a run id is a digest of the task id with
   * inputs the site shows (suite hash, agent, replay, seed) and so would confirm a guessed id.
   */
  runName(run: RunRecord): string;
  /** `runs/<name>.html`, relative to the site root. */
  runPath(run: RunRecord): string;
}

/** Options of {@link createSiteNames}. */
export interface SiteNamesOptions {
  readonly suite: SiteSuite;
  readonly runs: readonly RunRecord[];
  readonly isPrivate: boolean;
  /** The file-name slug of an agent id (its page is `agents/<slug>.html`). */
  readonly agentSlug: (id: string) => string;
}

/** Names every run of the site once, so each page name is unique and the same on every page. Pure. */
export function createSiteNames(options: SiteNamesOptions): SiteNames {
  const tasks = createTaskNames(options.suite, { isPrivate: options.isPrivate });
  const names = new Map<string, string>();
  if (options.isPrivate) {
    for (const run of options.runs) names.set(run.id, /^[A-Za-z0-9_-]+$/.test(run.id) ? run.id : slugify(run.id, new Set()));
  } else {
    // Two runs can share task, agent and replay only across agents of one slug; run-id order breaks the tie the same way every time.
    const wanted = options.runs.map((run) => ({ run, base: `task-${tasks.label(run.task).number}-${options.agentSlug(run.agent.id)}-${run.replay}` }));
    wanted.sort((x, y) => compareText(x.base, y.base) || compareText(x.run.id, y.run.id));
    const taken = new Set<string>();
    for (const { run, base } of wanted) {
      const name = slugify(base, taken);
      taken.add(name);
      names.set(run.id, name);
    }
  }
  const runName = (run: RunRecord): string => {
    const name = names.get(run.id);
    if (name === undefined) throw new Error(`run ${run.id} is not among the site's runs`);
    return name;
  };
  return { tasks, runName, runPath: (run) => `runs/${runName(run)}.html` };
}
