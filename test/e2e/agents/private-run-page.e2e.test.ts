import { appendFile, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installedClis } from '../../../src/agents/installed-clis.test-support.js';
import { bakeoff, copySuite, FIXTURES, tempDir } from '../helpers.js';

const CANARY = `CANARY-${process.pid}-${Date.now().toString(36)}-run-page`;
const CLAUDE = 'claude-code:claude-sonnet-4-5';

async function pages(dir: string): Promise<Map<string, string>> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile());
  return new Map(await Promise.all(files.map(async (e) => [path.relative(dir, path.join(e.parentPath, e.name)), await readFile(path.join(e.parentPath, e.name), 'utf8')] as const)));
}

/*
 * The run page of a --private site, from a real session: Claude Code, sandboxed, against the
 * scripted gold model on the tiny suite's JS task, whose prompt and gold change carry a
 * canary (the change adds canary.txt holding it, so the session's Write call carries it too),
 * beside the built-in gold agent. The public site of the same results must show none of it.
 */
describe('the private run page of a real CLI session', () => {
  let results = '';
  let publicSite: Map<string, string>;
  let privateSite: Map<string, string>;

  beforeAll(async () => {
    const claude = (await installedClis({ ...process.env, BAKEOFF_MISSING_CLIS: '' })).find((c) => c.name === 'claude-code')!;
    if (claude.problem) throw new Error(claude.problem);
    const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
    await rm(path.join(suite, 'tasks/py-add'), { recursive: true });
    const order = path.join(suite, 'tasks/add/orders/1');
    await appendFile(path.join(order, 'prompt.md'), `\n${CANARY}\n`);
    await appendFile(path.join(order, 'gold.patch'), `diff --git a/canary.txt b/canary.txt\nnew file mode 100644\n--- /dev/null\n+++ b/canary.txt\n@@ -0,0 +1 @@\n+${CANARY}\n`);
    const validate = await bakeoff(['validate', suite]);
    expect(validate.exitCode, validate.stderr).toBe(0);
    results = path.join(await tempDir(), 'results');
    const run = await bakeoff(['run', suite, '--agent', CLAUDE, '--agent', 'gold', '--upstream', 'scripted:gold', '--runs', '1', '--out', results, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    const pub = path.join(await tempDir(), 'site');
    const priv = path.join(await tempDir(), 'private');
    expect((await bakeoff(['publish', results, '--out', pub])).exitCode).toBe(0);
    const published = await bakeoff(['publish', results, '--out', priv, '--private']);
    expect(published.exitCode, published.stderr).toBe(0);
    [publicSite, privateSite] = [await pages(pub), await pages(priv)];
  }, 120_000);

  it('shows the session as a transcript: the prompt, the tool calls with their inputs and results, and the final answer', () => {
    const page = [...privateSite].find(([file, html]) => file.startsWith('runs/') && html.includes(`<title>Run `) && html.includes(CLAUDE))![1];
    expect(page).toContain(`<h3>Prompt</h3><pre class="prompt"># add() subtracts`);
    expect(page).toContain(CANARY);
    expect(page).toContain('<code class="tr-tool">Write</code> <code class="tr-summary">/workspace/canary.txt</code>');
    expect(page).toMatch(/<code class="tr-tool">Edit<\/code> <code class="tr-summary">\/workspace\/src\/math\.mjs<\/code><\/div><pre>replace_all: false\nfile_path: \/workspace\/src\/math\.mjs\nold_string:\n {4}return a - b;/);
    expect(page).toContain('<div class="tr-label">tool result: Edit</div><pre>The file /workspace/src/math.mjs has been updated successfully.');
    expect(page).toMatch(/<li class="tr-final"><div class="tr-label">final answer<\/div><div class="tr-text">Done: updated src\/math\.mjs, created canary\.txt\.<\/div><\/li>/);
  });

  it('shows the change as a diff, the test results and the model requests of the session', () => {
    const page = [...privateSite].find(([file, html]) => file.startsWith('runs/') && html.includes(CLAUDE))![1];
    expect(page).toContain('<code class="diff-path">canary.txt</code> <span class="diff-tag">new</span>');
    expect(page).toContain(`<td class="diff-mark">+</td><td class="diff-code">${CANARY}</td>`);
    expect(page).toContain('<td class="diff-mark">-</td><td class="diff-code">  return a - b;</td>');
    expect(page).toMatch(/<strong>(\d+) of \1 passed<\/strong> \(F→P/);
    expect(page).toMatch(/<summary>model requests \(\d+\)<\/summary>/);
  });

  it('says the built-in gold agent has no transcript and shows its output instead', () => {
    const page = [...privateSite].find(([file, html]) => file.startsWith('runs/') && html.includes('agent-link" href="../agents/gold.html"'))![1];
    expect(page).toContain('gold is a built-in agent: it prints no session stream, so there is no transcript.');
    expect(page).toContain(`<td class="diff-code">${CANARY}</td>`);
  });

  it('keeps prompts, transcripts, changes and test results off the public site', () => {
    expect(publicSite.size).toBe(privateSite.size);
    for (const [file, html] of publicSite) {
      expect(html, file).not.toContain(CANARY);
      for (const mark of ['class="transcript"', 'tr-tool', 'diff-code', 'class="checks"', '/workspace/', 'Done: created']) expect(html, file).not.toContain(mark);
    }
  });
});
