import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa, type ResultPromise } from 'execa';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, BIN, copySuite, FIXTURES, ROOT, tempDir } from './helpers.js';
import { processesOf, waitFor } from './process-helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const AXE_SOURCE = (createRequire(import.meta.url)('axe-core') as { source: string }).source;
/** Set to a folder to keep screenshots of the viewer's pages (375 and 1440 px, light and dark) there. */
const SHOTS = process.env.BAKEOFF_VIEWER_SCREENSHOTS;

/**
 * `bakeoff view` over a bake that is still running, in Debian's Chromium: the tiny suite with
 * gold and a `command:` agent whose session is a `sleep` the test ends when it chooses (the
 * sandbox shares the host's pid view), so what the page must show next is decided by the test,
 * not by a guessed number of seconds.
 */
describe('bakeoff view of a running bake, in a real browser', () => {
  const token = String(Date.now() % 100000).padStart(5, '0');
  const sleeper = `command:sleep 900.${token}`;
  let results = '';
  let bake: ResultPromise;
  let viewer: ResultPromise;
  let url = '';
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: the viewer's browser test needs Debian's chromium (./scripts/install.sh installs it)`);
    const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
    // the sleeping sessions end when the test kills them, not at the wall clock
    const yaml = path.join(suite, 'suite.yaml');
    await writeFile(yaml, (await readFile(yaml, 'utf8')).replace('sessionWallClockSec: 60', 'sessionWallClockSec: 900'));
    const validated = await bakeoff(['validate', suite]);
    expect(validated.exitCode, validated.stderr).toBe(0);
    results = path.join(await tempDir(), 'results');
    bake = execa(process.execPath, [BIN, 'run', suite, '--agent', 'gold', '--agent', sleeper, '--runs', '1', '--concurrency', '4', '--out', results, '--json'], { cwd: ROOT, reject: false });
    // the gold runs are stored and both sleepers are at work: the state the test starts from
    expect(await waitFor(() => processesOf('sleep', `900.${token}`).length === 2, 300_000), 'both sleeping sessions started').toBe(true);
    expect(await waitFor(() => storedRuns(results) === 2, 300_000), 'both gold runs stored').toBe(true);
    viewer = execa(process.execPath, [BIN, 'view', results], { cwd: ROOT, reject: false });
    url = await new Promise<string>((resolve, reject) => {
      viewer.stdout!.on('data', (chunk: Buffer) => {
        const line = String(chunk).split('\n').find((l) => l.startsWith('http://'));
        if (line) resolve(line.trim());
      });
      void viewer.then((ended) => reject(new Error(`bakeoff view ended: ${String(ended.stderr)}`)));
    });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    for (const pid of processesOf('sleep', `900.${token}`)) process.kill(pid, 'SIGKILL');
    await bake;
    viewer?.kill('SIGINT');
    await viewer;
  });

  const rows = (page: Page): Promise<string[]> => page.locator('table.run-list tbody tr:not([hidden])').evaluateAll((trs) => trs.map((tr) => `${tr.getAttribute('data-agent')} ${tr.getAttribute('data-task')}`));

  it('shows the runs at work, and a run that finishes appears without a reload', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}runs.html`);
    await expect.poll(() => page.locator('#live').textContent(), { timeout: 30_000 }).toMatch(/a bake is running .*: 2 runs at work:.*sleep 900/);
    expect(await rows(page)).toEqual([expect.stringMatching(/^gold .*\[add\]$/), expect.stringMatching(/^gold .*\[py-add\]$/)]);
    await page.evaluate(() => ((window as unknown as { kept: number }).kept = 42));
    // end one sleeping session: its run is graded and stored, and the page shows it
    process.kill(processesOf('sleep', `900.${token}`)[0]!, 'SIGKILL');
    await expect.poll(async () => (await rows(page)).length, { timeout: 120_000 }).toBe(3);
    expect(await page.evaluate(() => (window as unknown as { kept?: number }).kept)).toBe(42);
    await expect.poll(() => page.locator('#live').textContent(), { timeout: 30_000 }).toMatch(/1 run at work/);
    await page.close();
  });

  it('leads from a matrix cell to its run page', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}matrix.html`);
    const cell = page.locator('table.matrix tbody tr', { hasText: 'py-add' }).locator('td').first().locator('a');
    // the page's own answer is what counts, not the browser's load event (late on a saturated machine)
    await Promise.all([page.waitForURL(/\/runs\/[0-9a-f]{20}\.html$/, { waitUntil: 'commit' }), cell.click()]);
    await expect.poll(() => page.title(), { timeout: 120_000 }).toMatch(/^Run [0-9a-f]{20} \(.*py-add.*, gold\)$/);
    expect(await page.locator('table.checks').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('narrows the runs by filters and by text searched on the server, from the keyboard', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}runs.html`);
    await page.getByLabel('agent').focus();
    await page.getByLabel('agent').selectOption('gold');
    await expect.poll(async () => (await rows(page)).every((r) => r.startsWith('gold ')) && (await rows(page)).length === 2).toBe(true);
    expect(page.url()).toContain('agent=gold');
    await page.getByLabel('agent').selectOption('');
    // `calc.add` is in the Python task's prompt only: no row shows it, the server's search finds it
    await page.getByLabel('text').fill('calc.add');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await rows(page)).length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect((await rows(page)).every((r) => r.includes('py-add'))).toBe(true);
    await page.getByLabel('outcome').selectOption('solved');
    expect((await rows(page)).every((r) => r.startsWith('gold '))).toBe(true);
    await page.close();
  });

  it('compares any two agents picked on the compare page', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}compare.html`);
    await page.getByLabel('agent A').selectOption(sleeper);
    await page.getByLabel('agent B').selectOption('gold');
    await Promise.all([page.waitForURL(/compare\.html\?a=/), page.getByRole('button', { name: 'compare' }).click()]);
    expect(await page.title()).toBe(`Paired comparison: ${sleeper} vs gold`);
    expect(await page.locator('main').textContent()).toContain('gold wins');
    await page.close();
  });

  it('serves nothing without the token, only GET, and no page makes a request elsewhere', async () => {
    const origin = new URL(url).origin;
    expect((await fetch(`${origin}/`)).status).toBe(404);
    expect((await fetch(`${origin}/wrong-token/index.html`)).status).toBe(404);
    expect((await fetch(`${url}index.html`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${url}../bakeoff.db`)).status).toBe(404);
    const page = await browser.newPage();
    const elsewhere: string[] = [];
    page.on('request', (request) => void (request.url().startsWith(url) || elsewhere.push(request.url())));
    for (const file of ['index.html', 'matrix.html', 'runs.html', 'compare.html', 'methodology.html']) await page.goto(`${url}${file}`);
    expect(elsewhere).toEqual([]);
    await page.close();
  });

  it('its pages: 375 px wide without sideways scroll, light and dark, no serious axe violation', async () => {
    const problems: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      // axe and the width check at the narrow screen, where layouts break; 1440 px only for screenshots
      for (const width of SHOTS ? [375, 1440] : [375]) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
        const page = await context.newPage();
        for (const file of ['index.html', 'runs.html', 'matrix.html', 'compare.html']) {
          await page.goto(`${url}${file}`);
          await page.addScriptTag({ content: AXE_SOURCE });
          const violations = await page.evaluate(async () => {
            const result = await (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe.run(document, { resultTypes: ['violations'] });
            return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
          });
          const wide = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
          if (violations.length > 0 || wide) problems.push(`${file} ${colorScheme} ${width}: ${violations.join(', ')}${wide ? ' too wide' : ''}`);
          if (SHOTS) {
            await mkdir(SHOTS, { recursive: true });
            await page.screenshot({ path: path.join(SHOTS, `${file.replace('.html', '')}-${width}-${colorScheme}.png`), fullPage: true });
          }
        }
        await context.close();
      }
    }
    expect(problems).toEqual([]);
  });
});

/** Runs stored in a results folder so far (read as a report would, without a lock). */
function storedRuns(results: string): number {
  if (!existsSync(path.join(results, 'bakeoff.db'))) return 0;
  const db = new Database(path.join(results, 'bakeoff.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}
