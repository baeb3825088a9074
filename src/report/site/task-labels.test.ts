import { describe, expect, it } from 'vitest';
import type { SiteControls, SiteSuite, SiteTask } from './site-input.js';
import { createTaskNames, labelTasks } from './task-labels.js';

function task(id: string, extra: Partial<SiteTask> = {}): SiteTask {
  return { id, kind: 'bug', language: 'python', grading: 'tests', orders: 1, knownFailures: 0, failToPass: 1, passToPass: 0, origin: null, public: null, ...extra };
}

function suiteOf(tasks: readonly SiteTask[]): SiteSuite {
  return { id: 's', hash: 'h', controls: {} as SiteControls, tasks, methodology: null }; // labels never read the controls
}

const SUITE = suiteOf([
  task('zz-parser-drops-unicode', { kind: 'feature', language: 'rust' }),
  task('fix-login-race-in-session-store', { language: 'ts', public: { title: 'Sessions <race> on login', summary: 'Two logins at once "win" both.' } }),
  task('b-js-task', { language: 'js' }),
]);

describe('labelTasks', () => {
  it('numbers tasks from 1 by their id, whatever order the suite lists them in', () => {
    const labels = labelTasks(SUITE);
    expect([...labels].map(([id, l]) => [id, l.number])).toEqual([
      ['b-js-task', 1],
      ['fix-login-race-in-session-store', 2],
      ['zz-parser-drops-unicode', 3],
    ]);
    expect(labelTasks(suiteOf([...SUITE.tasks].reverse()))).toEqual(labels);
  });

  it('names a task by number, kind and language, and by its public title when it has one', () => {
    const labels = labelTasks(SUITE);
    expect(labels.get('b-js-task')).toEqual({ number: 1, text: 'task 1 — bug, JavaScript', summary: null });
    expect(labels.get('zz-parser-drops-unicode')).toEqual({ number: 3, text: 'task 3 — feature, Rust', summary: null });
    expect(labels.get('fix-login-race-in-session-store')).toEqual({
      number: 2,
      text: 'task 2 — Sessions <race> on login (bug, TypeScript)',
      summary: 'Two logins at once "win" both.',
    });
    expect(labelTasks(suiteOf([task('p')])).get('p')!.text).toBe('task 1 — bug, Python');
  });
});

describe('createTaskNames', () => {
  it('never gives the id on a public site, and the summary only as an escaped tooltip', () => {
    const names = createTaskNames(SUITE, { isPrivate: false });
    expect(names.text('zz-parser-drops-unicode')).toBe('task 3 — feature, Rust');
    expect(names.html('zz-parser-drops-unicode')).toBe('task 3 — feature, Rust');
    expect(names.html('fix-login-race-in-session-store')).toBe(
      '<span class="task" title="Two logins at once &quot;win&quot; both.">task 2 — Sessions &lt;race&gt; on login (bug, TypeScript)</span>',
    );
    for (const id of ['b-js-task', 'fix-login-race-in-session-store', 'zz-parser-drops-unicode']) {
      expect(names.text(id)).not.toContain(id);
      expect(names.html(id)).not.toContain(id);
    }
  });

  it('adds the id beside the label on a private site', () => {
    const names = createTaskNames(SUITE, { isPrivate: true });
    expect(names.text('b-js-task')).toBe('task 1 — bug, JavaScript [b-js-task]');
    expect(names.html('b-js-task')).toBe('task 1 — bug, JavaScript <code>b-js-task</code>');
  });

  it('refuses a task the suite does not have rather than naming it', () => {
    expect(() => createTaskNames(SUITE, { isPrivate: false }).html('unknown-task')).toThrow(/task unknown-task of a run is not among the suite's admitted tasks/);
  });
});
