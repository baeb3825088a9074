#!/usr/bin/env node
// `npm run site:screenshots [-- <results>]`: publishes <results> to <results>/site and writes PNG
// screenshots of index.html, the first agent's page and methodology.html (when the site has one)
// at 375 and 1440 px wide, light and dark, to <results>/screenshots/<page>-<width>-<scheme>.png.
// Without <results> it bakes the README's dry run (the five agent CLIs against the scripted model
// on examples/starter) plus `noop`, into results/dry-run (resumed when already there).
// Uses the built CLI (npm run build) and Debian's Chromium (scripts/install.sh installs it).
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROMIUM = '/usr/bin/chromium';
const DRY_RUN_AGENTS = [
  'claude-code:claude-sonnet-4-5', 'codex:gpt-5.5@lowest', 'pi:anthropic/claude-sonnet-4-5',
  'opencode:anthropic/claude-sonnet-4-5', 'gemini-cli:gemini-2.5-pro', 'noop',
];
const WIDTHS = [375, 1440];
const SCHEMES = ['light', 'dark'];

function fail(message, code) {
  process.stderr.write(`site-screenshots: ${message}\n`);
  process.exit(code);
}

/** Runs the built CLI with inherited output; a non-zero exit stops the script with the CLI's code. */
function bakeoff(args) {
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'bin/bakeoff.js'), ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    fail(`bakeoff ${args[0]} failed (exit ${error.status ?? '?'})`, error.status || 1);
  }
}

if (!existsSync(path.join(ROOT, 'dist/index.js'))) fail('no dist/: run `npm run build` first', 3);
if (!existsSync(CHROMIUM)) fail(`${CHROMIUM} not found: run ./scripts/install.sh (it installs Debian's chromium)`, 3);

const given = process.argv[2];
const results = path.resolve(given ?? path.join(ROOT, 'results/dry-run'));
if (given === undefined) {
  process.stderr.write(`site-screenshots: baking the README's dry run (+ noop) into ${path.relative(ROOT, results)} …\n`);
  bakeoff(['run', 'examples/starter', '--upstream', 'scripted:gold', '--out', results, ...DRY_RUN_AGENTS.flatMap((a) => ['--agent', a])]);
} else if (!existsSync(path.join(results, 'bakeoff.db'))) {
  fail(`${given}: not a results folder (no bakeoff.db); give the folder a bakeoff run wrote`, 2);
}

const site = path.join(results, 'site');
const shots = path.join(results, 'screenshots');
bakeoff(['publish', results, '--out', site]);
await rm(shots, { recursive: true, force: true });
await mkdir(shots, { recursive: true });

const index = await readFile(path.join(site, 'index.html'), 'utf8');
const firstAgent = /\shref="(agents\/[^"]+\.html)"/.exec(index)?.[1];
const pages = [['index', 'index.html']];
if (firstAgent) pages.push(['agent', firstAgent]);
else process.stderr.write('site-screenshots: index.html links no agent page: none photographed\n');
if (existsSync(path.join(site, 'methodology.html'))) pages.push(['methodology', 'methodology.html']);
else process.stderr.write('site-screenshots: the site has no methodology.html yet: not photographed\n');

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
try {
  for (const [name, file] of pages) {
    for (const width of WIDTHS) {
      for (const colorScheme of SCHEMES) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
        const page = await context.newPage();
        await page.goto(pathToFileURL(path.join(site, file)).href);
        const out = path.join(shots, `${name}-${width}-${colorScheme}.png`);
        await page.screenshot({ path: out, fullPage: true });
        await context.close();
        process.stdout.write(`${path.relative(process.cwd(), out)}\n`);
      }
    }
  }
} finally {
  await browser.close();
}
