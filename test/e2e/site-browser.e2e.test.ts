import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_SPECS, oneTaskSuite, requireHarnesses } from './agents/agent-helpers.js';
import { bakeoff, tempDir } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const AXE_SOURCE = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

interface JsonAgent { id: string; solveShare: number | null; tokensIn: number | null }
interface AxeViolation { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }

/** What a crawl of the site saw on its pages. */
interface Crawl {
  /** Site-relative paths of the pages opened, in the order they were reached. */
  pages: string[];
  /** `page: link` for each link that points outside the site or at a missing file. */
  badLinks: string[];
  /** `page: url` for each request that did not load a file:// URL. */
  requests: string[];
  /** How many requests loaded a file:// URL (so the listener is known to have listened). */
  fileRequests: number;
  errors: string[];
  /** `page: rule (impact): help, targets` per serious or critical axe violation. */
  violations: string[];
  /** `page: scrollWidth > innerWidth` for each page wider than the viewport. */
  overflows: string[];
}

/**
 * The site of a dry-run bake — the five real agent CLIs against bakeoff's scripted model, one
 * task, one run each, and `noop`, so that outcomes and token counts differ — opened in Debian's
 * Chromium from file://, as someone who downloaded it would.
 */
describe('the published site in a real browser', () => {
  let site = '';
  let privateSite = '';
  let agents: JsonAgent[] = [];
  let browser: Browser;

  beforeAll(async () => {
    // scripts/install.sh installs it; a missing browser is a broken machine, never a skip
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: the site's browser tests need Debian's chromium (./scripts/install.sh installs it)`);
    await requireHarnesses();
    const suite = await oneTaskSuite(60);
    const results = path.join(await tempDir(), 'results');
    const args = ['run', suite, '--upstream', 'scripted:gold', '--runs', '1', '--concurrency', '2', '--out', results, '--json', '--agent', 'noop'];
    for (const spec of Object.values(AGENT_SPECS)) args.push('--agent', spec);
    const run = await bakeoff(args);
    expect(run.exitCode, run.stderr).toBe(0);
    agents = (JSON.parse((await bakeoff(['report', results, '--format', 'json'])).stdout) as { agents: JsonAgent[] }).agents;
    site = path.join(await tempDir(), 'site');
    const publish = await bakeoff(['publish', results, '--out', site]);
    expect(publish.exitCode, publish.stderr).toBe(0);
    // the same bake published --private: run pages with the change as a diff and the session as a transcript
    privateSite = path.join(await tempDir(), 'private-site');
    const publishPrivate = await bakeoff(['publish', results, '--out', privateSite, '--private']);
    expect(publishPrivate.exitCode, publishPrivate.stderr).toBe(0);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('every page, light and dark, 375 px wide: links resolve, nothing leaves file://, no page error, no serious axe violation, no sideways scroll', async () => {
    const written = await siteFiles(site);
    // index, matrix, runs, compare, methodology, 6 agents, 6 runs: every one reached from index.html by links
    expect(written).toHaveLength(17);
    // the two schemes side by side: axe's time per page is most of this test's
    await Promise.all((['light', 'dark'] as const).map((colorScheme) => expectCleanCrawl(browser, site, written, { width: 375, colorScheme })));
  });

  it('the --private site, light and dark, 375 and 1440 px wide: run pages with a diff and a transcript pass the same checks', async () => {
    const written = await siteFiles(privateSite);
    expect(written).toHaveLength(17);
    // the private run pages draw what the public ones leave out: without them this crawl would prove nothing more
    const runPages = await Promise.all(written.filter((f) => f.startsWith('runs/')).map((f) => readFile(path.join(privateSite, f), 'utf8')));
    expect(runPages).toHaveLength(6);
    const having = (pattern: RegExp): number => runPages.filter((html) => pattern.test(html)).length;
    expect(having(/<table class="diff-lines"[\s>]/), 'run pages with a diff').toBe(5); // noop's: "No change."
    expect(having(/<p class="diff-empty">/), 'run pages with no change').toBe(1);
    expect(having(/<ol class="transcript">/), 'run pages with a transcript').toBe(5);
    expect(having(/<table class="checks"[\s>]/), 'run pages with test results').toBe(6);
    expect(having(/<td class="status-fail">/), 'run pages with a failed test').toBeGreaterThanOrEqual(1);
    for (const width of [375, 1440]) {
      await Promise.all((['light', 'dark'] as const).map((colorScheme) => expectCleanCrawl(browser, privateSite, written, { width, colorScheme })));
    }
  });

  it("gives each model agent's tokens by class with their cost at the catalog's list price, and a built-in agent none", async () => {
    const pages = (await readdir(path.join(site, 'agents'))).map((f) => path.join(site, 'agents', f));
    const claude = await readFile(pages.find((p) => path.basename(p).startsWith('claude-code'))!, 'utf8');
    expect(claude).toContain("bakeoff&#39;s scripted model (scripted:gold): a dry run");
    expect(claude).toMatch(/cost at list price \(@pydantic\/genai-prices [0-9.]+/);
    expect(claude).toMatch(/<th scope="row">output \(reasoning included\)<\/th><td class="num">[0-9,]+<\/td><td class="num">\$[0-9.]+<\/td>/);
    expect(await readFile(pages.find((p) => path.basename(p) === 'noop.html')!, 'utf8')).toContain('A built-in agent: no model, no tokens, no cost.');
  });

  it('prints every page on A4 without the navigation, no table cut at the page edge', async () => {
    // A4 less 1 cm margins each side is 190 mm: 718 CSS px
    const context = await browser.newContext({ viewport: { width: 718, height: 1000 }, colorScheme: 'dark' });
    try {
      const page = await context.newPage();
      await page.emulateMedia({ media: 'print' });
      const cut: string[] = [];
      for (const file of await siteFiles(site)) {
        await page.goto(pathToFileURL(path.join(site, file)).href);
        const seen = await page.evaluate(() => ({
          width: document.documentElement.scrollWidth,
          nav: getComputedStyle(document.querySelector('header nav')!).display,
          background: getComputedStyle(document.documentElement).backgroundColor,
        }));
        if (seen.width > 718 || seen.nav !== 'none' || seen.background !== 'rgb(255, 255, 255)') cut.push(`${file}: ${JSON.stringify(seen)}`);
      }
      expect(cut).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('sorts the leaderboard by a header button, by mouse click and by Enter and Space on the focused button', async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(pathToFileURL(path.join(site, 'index.html')).href);
      const shown = (): Promise<string[]> => page.locator('table.leaderboard tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-agent') ?? ''));
      const sortState = (): Promise<(string | null)[]> => page.locator('table.leaderboard thead th').evaluateAll((ths) => ths.map((th) => th.getAttribute('aria-sort')));
      let expected = agents.map((a) => a.id);
      expect(await shown()).toEqual(expected);
      expect(expected.at(-1)).toBe('noop'); // the only agent that solves nothing

      await page.getByRole('button', { name: 'share [95% CI]' }).click();
      expected = sortLike(expected, agents, (a) => a.solveShare, true);
      expect(expected[0]).toBe('noop');
      expect(await shown()).toEqual(expected);
      expect((await sortState()).filter((s) => s !== null)).toEqual(['ascending']);

      const tokensIn = page.getByRole('button', { name: 'tokens in' });
      await tokensIn.focus();
      await page.keyboard.press('Enter');
      expected = sortLike(expected, agents, (a) => a.tokensIn, true);
      expect(await shown()).toEqual(expected);
      expect(await page.locator('th:has(button[data-sort="tokens in"])').getAttribute('aria-sort')).toBe('ascending');

      await page.keyboard.press('Space');
      expected = sortLike(expected, agents, (a) => a.tokensIn, false);
      expect(await shown()).toEqual(expected);
      expect(expected[0]).toBe(agents.reduce((m, a) => ((a.tokensIn ?? -1) > (m.tokensIn ?? -1) ? a : m)).id);
      expect(expected.at(-1)).toBe('noop'); // no tokens: last either way
      expect(await page.locator('th:has(button[data-sort="tokens in"])').getAttribute('aria-sort')).toBe('descending');
      expect((await sortState()).filter((s) => s !== null)).toHaveLength(1);
    } finally {
      await context.close();
    }
  });
});

/**
 * Crawls the site from index.html in a fresh context of that width and colour scheme and
 * expects every written page reached, every link resolving, no request off file://, no page
 * error, no serious or critical axe violation and nothing wider than the viewport.
 */
async function expectCleanCrawl(browser: Browser, site: string, written: readonly string[], how: { width: number; colorScheme: 'light' | 'dark' }): Promise<void> {
  const context = await browser.newContext({ viewport: { width: how.width, height: 800 }, colorScheme: how.colorScheme });
  const label = `${how.colorScheme}, ${how.width} px`;
  try {
    const crawl = await crawlSite(context, site);
    expect([...crawl.pages].sort(), label).toEqual([...written].sort());
    expect(crawl.badLinks, label).toEqual([]);
    expect(crawl.requests, label).toEqual([]);
    expect(crawl.fileRequests, label).toBeGreaterThanOrEqual(written.length);
    expect(crawl.errors, label).toEqual([]);
    expect(crawl.violations, label).toEqual([]);
    expect(crawl.overflows, label).toEqual([]);
  } finally {
    await context.close();
  }
}

/** Every file publish wrote, relative to the site folder (all are pages: the crawl must reach each). */
async function siteFiles(site: string): Promise<string[]> {
  const entries = await readdir(site, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(site, path.join(e.parentPath, e.name)));
}

/** The order the sort script makes from `current`: stable, by `value`, agents without one last. */
function sortLike(current: readonly string[], agents: readonly JsonAgent[], value: (a: JsonAgent) => number | null, ascending: boolean): string[] {
  const of = (id: string): number | null => value(agents.find((a) => a.id === id)!);
  return [...current].sort((x, y) => {
    const a = of(x);
    const b = of(y);
    if (a === null) return b === null ? 0 : 1;
    if (b === null) return -1;
    return ascending ? a - b : b - a;
  });
}

/**
 * Opens index.html, then every page any opened page links to, once each, checking each as it
 * goes; every request of the context is recorded.
 */
async function crawlSite(context: BrowserContext, site: string): Promise<Crawl> {
  const crawl: Crawl = { pages: [], badLinks: [], requests: [], fileRequests: 0, errors: [], violations: [], overflows: [] };
  const root = pathToFileURL(site + path.sep).href;
  let current = '';
  context.on('request', (request) => {
    if (request.url().startsWith('file://')) crawl.fileRequests += 1;
    else crawl.requests.push(`${current}: ${request.url()}`);
  });
  const queue = ['index.html'];
  const seen = new Set(queue);
  const page = await context.newPage();
  page.on('pageerror', (error) => crawl.errors.push(`${current}: ${String(error)}`));
  while (queue.length > 0) {
    current = queue.shift()!;
    crawl.pages.push(current);
    await page.goto(root + current);
    for (const link of await linksOf(page)) {
      // a runs list link carries its filters in the query string (runs.html?task=…&agent=…)
      const target = link.split('#')[0]!.split('?')[0]!;
      const rel = target.startsWith(root) ? decodeURIComponent(target.slice(root.length)) : null;
      if (rel === null || !existsSync(fileURLToPath(target))) crawl.badLinks.push(`${current}: ${link}`);
      else if (rel.endsWith('.html') && !seen.has(rel)) {
        seen.add(rel);
        queue.push(rel);
      }
    }
    crawl.violations.push(...(await seriousViolations(page)).map((v) => `${current}: ${v}`));
    const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    if (width.scroll > width.inner) crawl.overflows.push(`${current}: ${width.scroll} > ${width.inner}`);
  }
  return crawl;
}

/** Every `<a href>` of the page, resolved against the page's URL. */
function linksOf(page: Page): Promise<string[]> {
  return page.locator('a[href]').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
}

/** axe-core's violations of impact serious or critical, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run({ resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
}
