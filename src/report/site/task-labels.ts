import { compareText } from '../common/compare-text.js';
import { escapeHtml } from './escape-html.js';
import type { SiteSuite, SiteTask } from './site-input.js';

/** How the site names one task; built by {@link labelTasks}. */
export interface TaskLabel {
  /** 1-based position among the suite's admitted tasks sorted by id (code-unit order): stable while the task set is. */
  readonly number: number;
  /**
   * `task 7 — bug, Python`, or with task.yaml `public.title` `task 7 — Dates lose their zone
   * (bug, Python)`. Never the id: this is all the public site says of a task's name.
   */
  readonly text: string;
  /** task.yaml `public.summary`; null when not given. */
  readonly summary: string | null;
}

const LANGUAGES: Readonly<Record<string, string>> = { js: 'JavaScript', ts: 'TypeScript', python: 'Python', rust: 'Rust' };

/** The display name of task.yaml `language` (`ts` → TypeScript); an unknown value as written. */
export function languageName(language: string): string {
  return LANGUAGES[language] ?? language;
}

/**
 * The label of every task of the suite, by id. The number is the task's position in the
 * admitted tasks sorted by id, whatever order `suite.tasks` arrives in. Pure.
 */
export function labelTasks(suite: SiteSuite): ReadonlyMap<string, TaskLabel> {
  const sorted = [...suite.tasks].sort((a, b) => compareText(a.id, b.id));
  return new Map(sorted.map((task, i) => [task.id, labelOf(task, i + 1)]));
}

function labelOf(task: SiteTask, number: number): TaskLabel {
  const facts = `${task.kind}, ${languageName(task.language)}`;
  const text = task.public ? `task ${number} — ${task.public.title} (${facts})` : `task ${number} — ${facts}`;
  return { number, text, summary: task.public?.summary ?? null };
}

/** How every renderer of the site names a task: the label, and the id on a private site only. */
export interface TaskNames {
  readonly isPrivate: boolean;
  /** The task's label; throws for a task the suite does not have (publish only renders runs it verified against the suite). */
  label(id: string): TaskLabel;
  /** Plain text (page titles): the label, plus `[<id>]` on a private site. */
  text(id: string): string;
  /** HTML: the escaped label (its summary as tooltip), plus the id in `<code>` on a private site. */
  html(id: string): string;
}

/** The {@link TaskNames} of a suite's site, public or private. Pure. */
export function createTaskNames(suite: SiteSuite, options: { readonly isPrivate: boolean }): TaskNames {
  const labels = labelTasks(suite);
  const label = (id: string): TaskLabel => {
    const found = labels.get(id);
    if (!found) throw new Error(`task ${id} of a run is not among the suite's admitted tasks`);
    return found;
  };
  const { isPrivate } = options;
  return {
    isPrivate,
    label,
    text: (id) => (isPrivate ? `${label(id).text} [${id}]` : label(id).text),
    html: (id) => {
      const { text, summary } = label(id);
      const name = summary === null ? escapeHtml(text) : `<span class="task" title="${escapeHtml(summary)}">${escapeHtml(text)}</span>`;
      return isPrivate ? `${name} <code>${escapeHtml(id)}</code>` : name;
    },
  };
}
