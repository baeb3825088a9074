import { existsSync } from 'node:fs';
import { appendFile, cp, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const CANARY = `CANARY-${process.pid}-${Date.now().toString(36)}-7f3a`;

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
      ['agents/gold.html', 'agents/noop.html', 'compare.html', 'index.html', 'matrix.html'],
    );
    expect(files.filter((f) => f.includes('/runs/'))).toHaveLength(8);
    for (const file of files) {
      const html = await readFile(file, 'utf8');
      expect(html, file).not.toContain(CANARY);
      expect(html, file).not.toMatch(/https?:\/\//);
      expect(html, file).toMatch(/suite hash<\/dt><dd><code>[0-9a-f]{64}/);
    }

    const privateSite = path.join(await tempDir(), 'private');
    const priv = await bakeoff(['publish', baked, '--out', privateSite, '--private']);
    expect(priv.exitCode, priv.stderr).toBe(0);
    const runPages = (await filesUnder(path.join(privateSite, 'runs'))).map((f) => readFile(f, 'utf8'));
    const withCanary = (await Promise.all(runPages)).filter((html) => html.includes(CANARY));
    expect(withCanary).toHaveLength(4); // the gold runs' changes add canary.txt
  });

  it.skipIf(!existsSync(CHROMIUM))('renders, sorts and links in Chromium from file:// without any network request', async () => {
    const site = path.join(await tempDir(), 'site');
    expect((await bakeoff(['publish', baked, '--out', site])).exitCode).toBe(0);
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(pathToFileURL(path.join(site, 'index.html')).href);
      const rows = page.locator('table.leaderboard tbody tr');
      expect(await rows.count()).toBe(2);
      const agents = async (): Promise<string[]> => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-agent') ?? ''));
      expect(await agents()).toEqual(['gold', 'noop']);
      await page.locator('th[data-sort="share [95% CI]"]').click();
      expect(await agents()).toEqual(['noop', 'gold']);
      await page.locator('th[data-sort="share [95% CI]"]').click();
      expect(await agents()).toEqual(['gold', 'noop']);
      expect(await page.locator('svg circle').count()).toBeGreaterThanOrEqual(2);
      expect(await page.locator('svg').first().textContent()).toContain('no cost data');

      await page.locator('table.leaderboard a', { hasText: 'gold' }).click();
      await page.waitForURL(/agents\/gold\.html$/);
      expect(await page.locator('h1').textContent()).toBe('Agent gold');
      await page.locator('a.run-link').first().click();
      await page.waitForURL(/runs\/[^/]+\.html$/);
      expect(await page.locator('h1').textContent()).toMatch(/^Run \S+ \((add|py-add), gold\)$/);
      expect(await page.locator('td.solved').count()).toBe(1);

      for (const other of ['matrix.html', 'compare.html']) {
        await page.goto(pathToFileURL(path.join(site, other)).href);
        expect(await page.locator('h1').count()).toBe(1);
      }
      expect(errors).toEqual([]);
      expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
      expect(requests.length).toBeGreaterThan(0);
    } finally {
      await browser.close();
    }
  });

  it('refuses to publish a tampered results folder (exit 1, naming the run) and writes no site', async () => {
    const results = path.join(await tempDir(), 'results');
    await cp(baked, results, { recursive: true });
    const db = new Database(path.join(results, 'bakeoff.db'));
    const { id } = db.prepare("SELECT id FROM runs WHERE agent_id = 'noop' AND task = 'add' ORDER BY replay LIMIT 1").get() as { id: string };
    db.prepare("UPDATE runs SET outcome = 'solved', reason = NULL, detail = NULL WHERE id = ?").run(id);
    db.close();
    const site = path.join(await tempDir(), 'site');
    const publish = await bakeoff(['publish', results, '--out', site]);
    expect(publish.exitCode, publish.stderr).toBe(1);
    expect(publish.stderr).toContain(`run ${id} (add, noop): stored solved, re-graded failed`);
    expect(publish.stderr).toContain('refusing to publish');
    expect(existsSync(site)).toBe(false);
  });
});
