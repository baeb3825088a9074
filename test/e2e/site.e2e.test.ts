import { existsSync } from 'node:fs';
import { appendFile, cp, readdir, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';

const CANARY = `CANARY-${process.pid}-${Date.now().toString(36)}-7f3a`;
/**
 * The tiny suite's tasks `add` and `py-add`, renamed in the test's copy: ids distinctive enough
 * that finding one in a page means the page leaked it (`add` is also a word of the pages).
 */
const JS_TASK = 'zq-js-sum-flips-sign';
const PY_TASK = 'zq-py-calc-sum-flips-sign';
const PY_TITLE = 'Calculator subtracts when asked to add';
const PY_SUMMARY = 'calc.add returns the difference of its arguments.';

/** Every file under a folder, as paths. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Appends the canary to every prompt and hidden test, and makes every gold patch add a file holding it. */
async function plantCanary(suite: string): Promise<void> {
  for (const file of await filesUnder(path.join(suite, 'tasks'))) {
    const rel = path.relative(suite, file);
    if (rel.endsWith('prompt.md')) await appendFile(file, `\n${CANARY}\n`);
    else if (rel.includes('/hidden/')) await appendFile(file, `\n${file.endsWith('.py') ? '#' : '//'} ${CANARY}\n`);
    else if (rel.endsWith('gold.patch')) {
      await appendFile(file, `diff --git a/canary.txt b/canary.txt\nnew file mode 100644\n--- /dev/null\n+++ b/canary.txt\n@@ -0,0 +1 @@\n+${CANARY}\n`);
    }
  }
}

describe('bakeoff publish', () => {
  let baked: string;

  beforeAll(async () => {
    const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
    await plantCanary(suite);
    await rename(path.join(suite, 'tasks/add'), path.join(suite, 'tasks', JS_TASK));
    await rename(path.join(suite, 'tasks/py-add'), path.join(suite, 'tasks', PY_TASK));
    await appendFile(path.join(suite, 'tasks', PY_TASK, 'task.yaml'), `public:\n  title: ${PY_TITLE}\n  summary: ${PY_SUMMARY}\n`);
    const validate = await bakeoff(['validate', suite]);
    expect(validate.exitCode, validate.stdout + validate.stderr).toBe(0);
    baked = path.join(await tempDir(), 'results');
    const run = await bakeoff(['run', suite, '--agent', 'gold', '--agent', 'noop', '--runs', '2', '--out', baked, '--json', '--concurrency', '4']);
    expect(run.exitCode, run.stderr).toBe(0);
    // The canary reached the results (stored prompts and changes): the public site must filter it.
    const stored = await Promise.all((await filesUnder(path.join(baked, 'runs'))).map((f) => readFile(f, 'utf8')));
    expect(stored.some((text) => text.includes(CANARY))).toBe(true);
  });

  it('writes a public site with no canary text, and a private one whose run pages carry the change', async () => {
    const site = path.join(await tempDir(), 'site');
    const publish = await bakeoff(['publish', baked, '--out', site, '--concurrency', '4']);
    expect(publish.exitCode, publish.stderr).toBe(0);
    const files = await filesUnder(site);
    expect(files.map((f) => path.relative(site, f)).filter((f) => !f.startsWith('runs/')).sort()).toEqual(
      ['agents/gold.html', 'agents/noop.html', 'compare.html', 'index.html', 'matrix.html', 'methodology.html', 'runs.html'],
    );
    // the methodology page is written from the tiny suite's controls (runsPerTask 2, 60 s clocks)
    const methodology = await readFile(path.join(site, 'methodology.html'), 'utf8');
    expect(methodology).toContain('Each agent runs each task 2 times (controls.runsPerTask)');
    expect(methodology).toContain('Each agent session (one work order) has 60 s of wall-clock time');
    expect(methodology).toContain('The suite tiny has 2 admitted tasks: 2 bug fixes and 0 features, in JavaScript (1) and Python (1).');
    expect(files.filter((f) => f.includes('/runs/'))).toHaveLength(8);
    // A run id digests the task id with what the site shows: it would confirm a guessed task id.
    const db = new Database(path.join(baked, 'bakeoff.db'), { readonly: true });
    const runIds = db.prepare('SELECT id FROM runs').pluck().all() as string[];
    db.close();
    expect(runIds).toHaveLength(8);
    const pages = new Map<string, string>();
    for (const file of files) {
      const html = await readFile(file, 'utf8');
      pages.set(path.relative(site, file), html);
      expect(html, file).not.toContain(CANARY);
      expect(html, file).not.toMatch(/https?:\/\//);
      expect(html, file).toMatch(/suite hash<\/dt><dd><code>[0-9a-f]{64}/);
      for (const id of [JS_TASK, PY_TASK, ...runIds]) {
        expect(path.relative(site, file), 'a file name').not.toContain(id);
        expect(html, file).not.toContain(id);
      }
    }
    // task 1 (the JS task) has no `public:`; task 2 its title, and its summary on its pages.
    expect(pages.get('matrix.html')).toContain('<th>task 1 — bug, JavaScript</th>');
    expect(pages.get('matrix.html')).toContain(`<th><span class="task" title="${PY_SUMMARY}">task 2 — ${PY_TITLE} (bug, Python)</span></th>`);
    expect(pages.get('runs/task-2-gold-0.html')).toContain(`<p class="task-summary">${PY_SUMMARY}</p>`);
    expect([...pages.keys()].filter((f) => f.startsWith('runs/')).sort()).toEqual(
      ['task-1-gold-0', 'task-1-gold-1', 'task-1-noop-0', 'task-1-noop-1', 'task-2-gold-0', 'task-2-gold-1', 'task-2-noop-0', 'task-2-noop-1'].map((n) => `runs/${n}.html`),
    );

    const privateSite = path.join(await tempDir(), 'private');
    const priv = await bakeoff(['publish', baked, '--out', privateSite, '--private']);
    expect(priv.exitCode, priv.stderr).toBe(0);
    // the unchanged folder was re-checked once: the second publish uses that re-check
    expect(priv.stderr).toMatch(/bakeoff: using the re-check of \S+ \(8 runs, 0 mismatches\): nothing it checked has changed since/);
    expect(priv.stderr).not.toContain('verified 8 runs');
    const runPages = await Promise.all((await filesUnder(path.join(privateSite, 'runs'))).map((f) => readFile(f, 'utf8')));
    // every run page shows its prompt; the gold runs' also their change, which adds canary.txt
    expect(runPages.filter((html) => html.includes(`<pre class="prompt">`) && html.includes(CANARY))).toHaveLength(8);
    expect(runPages.filter((html) => html.includes(`<td class="diff-code">${CANARY}</td>`))).toHaveLength(4);
    const matrix = await readFile(path.join(privateSite, 'matrix.html'), 'utf8');
    expect(matrix).toContain(`task 1 — bug, JavaScript <code>${JS_TASK}</code>`);
    expect(matrix).toContain(`task 2 — ${PY_TITLE} (bug, Python)</span> <code>${PY_TASK}</code>`);
    expect(runPages.filter((html) => html.includes(`[${JS_TASK}]`))).toHaveLength(4);
  });

  it('refuses to publish a tampered results folder (exit 1, naming the run) and writes no site', async () => {
    const results = path.join(await tempDir(), 'results');
    await cp(baked, results, { recursive: true });
    // the copy carries the stamp of the clean re-check above: a changed run must not pass on it
    expect(existsSync(path.join(results, 'verified.json'))).toBe(true);
    const db = new Database(path.join(results, 'bakeoff.db'));
    const { id } = db.prepare("SELECT id FROM runs WHERE agent_id = 'noop' AND task = ? ORDER BY replay LIMIT 1").get(JS_TASK) as { id: string };
    db.prepare("UPDATE runs SET outcome = 'solved', reason = NULL, detail = NULL WHERE id = ?").run(id);
    db.close();
    const site = path.join(await tempDir(), 'site');
    const publish = await bakeoff(['publish', results, '--out', site]);
    expect(publish.exitCode, publish.stderr).toBe(1);
    expect(publish.stderr).toContain(`run ${id} (${JS_TASK}, noop): stored solved, re-graded failed`);
    expect(publish.stderr).toContain('refusing to publish');
    expect(existsSync(site)).toBe(false);
  });
});
