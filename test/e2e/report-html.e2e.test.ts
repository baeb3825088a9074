import { cp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, BIN, copySuite, FIXTURES, tempDir } from './helpers.js';

/*
 * `bakeoff report --format html` on a real bake of the tiny suite's `add` task (py-add removed
 * to keep the file fast): gold, noop, and an agent whose id is markup (a `command:` agent is
 * named by its command, so the id is the user's text).
 */

const CHROMIUM = '/usr/bin/chromium';
const HOSTILE = "command:true '<script>alert(1)</script>'";
const HOSTILE_HTML = 'command:true &#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39;';

let results: string;
let env: Record<string, string>;

beforeAll(async () => {
  env = { BAKEOFF_CACHE_DIR: await tempDir() };
  const suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
  await rm(path.join(suite, 'tasks/py-add'), { recursive: true });
  const validated = await bakeoff(['validate', suite], { env });
  expect(validated.exitCode, validated.stderr).toBe(0);
  results = path.join(await tempDir(), 'results');
  const run = await bakeoff(['run', suite, '--agent', 'gold', '--agent', 'noop', '--agent', HOSTILE, '--runs', '1', '--out', results, '--json', '--concurrency', '4'], { env });
  expect(run.exitCode, run.stderr).toBe(0);
});

describe('bakeoff report --format html', () => {
  it('prints one self-contained page to stdout, the same bytes --out writes', async () => {
    // stdout as it came, final newline included (bakeoff() strips it)
    const printed = await execa(process.execPath, [BIN, 'report', results, '--format', 'html'], { env: { NO_COLOR: '1', ...env }, stripFinalNewline: false });
    expect(printed.exitCode, printed.stderr).toBe(0);
    const file = path.join(await tempDir(), 'report.html');
    const written = await bakeoff(['report', results, '--format', 'html', '--out', file], { env });
    expect(written.exitCode, written.stderr).toBe(0);
    expect(written.stdout).toBe('');
    expect(written.stderr).toBe(`wrote ${file}`);
    const html = await readFile(file, 'utf8');
    expect(printed.stdout).toBe(html);

    expect(html).toMatch(/^<!doctype html>\n[^]*<\/html>\n$/);
    expect(html).toContain('<title>Leaderboard: tiny</title>');
    expect(html).toMatch(/<dt>suite hash<\/dt><dd><code>[0-9a-f]{64}<\/code>/);
    // rank, agent (plain text: a single file has no agent pages) and share of every agent, in rank order
    const rows = [...html.matchAll(/<tr data-agent="[^"]*"><td class="num" data-value="\d+">([^<]*)<\/td><td><span class="agent">((?:[^<]|<wbr>)*)<\/span><\/td><td class="num" data-value="[^"]*"><span class="share-text">([^<]*)<\/span>/g)];
    // an id may break after `:`, `/` and `@` in a narrow column (<wbr>)
    expect(rows.map((m) => [m[1], m[2]!.replaceAll('<wbr>', ''), m[3]])).toEqual([
      ['1', 'gold', '100.0% [20.7–100.0]'],
      ['=2', HOSTILE_HTML, '0.0% [0.0–79.3]'],
      ['=2', 'noop', '0.0% [0.0–79.3]'],
    ]);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<(a|link|img|iframe|nav)\b/i);
    expect(html).not.toMatch(/\b(src|href)=/i);
  });

  it('escapes the hostile agent id everywhere: no markup of its own reaches the page', async () => {
    const { stdout } = await bakeoff(['report', results, '--format', 'html'], { env });
    expect(stdout).not.toContain('<script>alert');
    expect(stdout).not.toContain("'<script>");
    expect(stdout.split(HOSTILE_HTML).length - 1).toBeGreaterThanOrEqual(4); // the table row (twice), the charts, the void table
    expect(stdout.match(/<script>/g)).toHaveLength(1); // the sort script, nothing else
  });

  it('draws --compare A B as the paired comparison page', async () => {
    const compared = await bakeoff(['report', results, '--format', 'html', '--compare', 'gold', HOSTILE], { env });
    expect(compared.exitCode, compared.stderr).toBe(0);
    expect(compared.stdout).toContain(`<h1>Paired comparison: gold vs ${HOSTILE_HTML}</h1>`);
    expect(compared.stdout).toContain('<tr><th>A wins</th><td>1</td></tr>');
    expect(compared.stdout).toContain('<tr><td>add</td><td>gold wins</td>'); // tasks by id, as the table names them
    expect(compared.stdout).not.toContain('<script>alert');
    expect(compared.stdout).not.toMatch(/https?:\/\/|\bhref=/);
    const unknown = await bakeoff(['report', results, '--format', 'html', '--compare', 'gold', 'nobody'], { env });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('--compare: unknown agent "nobody"');
  });

  it('refuses mixed runs as the table does: the same sentence, exit 2, nothing written', async () => {
    const mixed = path.join(await tempDir(), 'mixed');
    await cp(results, mixed, { recursive: true });
    const db = new Database(path.join(mixed, 'bakeoff.db'));
    const row = db.prepare("SELECT id, runtime_json FROM runs WHERE agent_id = 'noop' LIMIT 1").get() as { id: string; runtime_json: string };
    db.prepare('UPDATE runs SET runtime_json = ? WHERE id = ?').run(JSON.stringify({ ...JSON.parse(row.runtime_json), node: 'v0.0.1' }), row.id);
    db.close();
    const table = await bakeoff(['report', mixed], { env });
    expect(table.exitCode).toBe(2);
    expect(table.stderr).toMatch(/refusing to rank runs that differ in runtime\.node \(.*v0\.0\.1.*\)/);
    const out = path.join(await tempDir(), 'report.html');
    for (const args of [['--format', 'html'], ['--format', 'html', '--out', out]]) {
      const html = await bakeoff(['report', mixed, ...args], { env });
      expect(html.exitCode).toBe(2);
      expect(html.stdout).toBe('');
      expect(html.stderr).toBe(table.stderr);
    }
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
  });

  it('opens from file:// in Chromium with no other request, sorts, and shows the hostile id as text', async () => {
    const file = path.join(await tempDir(), 'report.html');
    expect((await bakeoff(['report', results, '--format', 'html', '--out', file], { env })).exitCode).toBe(0);
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(pathToFileURL(file).href);
      const agents = async (): Promise<string[]> =>
        page.locator('table.leaderboard tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-agent') ?? ''));
      expect(await agents()).toEqual(['gold', HOSTILE, 'noop']);
      expect(await page.locator('table.leaderboard tbody tr td:nth-child(2)').allTextContents()).toEqual(['gold', HOSTILE, 'noop']);
      await page.getByRole('button', { name: 'share [95% CI]' }).click();
      expect((await agents()).at(-1)).toBe('gold');
      expect(await page.locator('script').count()).toBe(1);
      expect(dialogs).toEqual([]);
      expect(errors).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
    } finally {
      await browser.close();
    }
  });
});
