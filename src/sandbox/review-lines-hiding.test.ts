import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPatch, captureChange, git, type Change } from './git.js';
import { preparedRepo } from './prepared-repo.test-support.js';

/*
 * A real fix hidden from lines to review — its code in the names of empty files, in a symbolic
 * link's target, or on "one line" whose line terminators git does not count (U+2028, a lone CR) —
 * must count at least as many lines as the same fix written plainly. The fix is the starter
 * suite's csv-multiline-fields gold change (src/parse.mjs as the gold leaves it), and each
 * hidden variant is checked to be a real fix: the task's hidden tests pass on it.
 */

const TASK = path.resolve(import.meta.dirname, '../../examples/starter/tasks/csv-multiline-fields');
const GOLD = path.join(TASK, 'orders/1/gold.patch');
const HIDDEN = path.join(TASK, 'orders/1/hidden');

let root: string;
let prepared: string;
let fixed: string;
let clones = 0;

async function repoFiles(dir: string, rel = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) Object.assign(out, await repoFiles(dir, child));
    else out[child] = await readFile(path.join(dir, child), 'utf8');
  }
  return out;
}

/** A workspace made from the prepared repo, changed by `make`, its change captured and its hidden tests run. */
async function variant(make: (ws: string) => Promise<void>): Promise<{ change: Change; testsPass: boolean }> {
  const ws = path.join(root, `ws-${++clones}`);
  await git(['clone', '-q', '--no-hardlinks', prepared, ws], { cwd: root });
  await make(ws);
  const change = await captureChange(prepared, ws);
  await cp(HIDDEN, ws, { recursive: true });
  const tests = await execa('node', ['--test', 'test/multiline.test.mjs'], { cwd: ws, reject: false });
  return { change, testsPass: tests.exitCode === 0 };
}

/** src/parse.mjs replaced by two lines that import the fixed module from `source` (a JS expression giving its text as base64). */
const loader = (imports: string, source: string): string =>
  `import { ${imports} } from 'node:fs';\nexport const { parse, checkDelimiter, CsvError } = await import('data:text/javascript;base64,' + ${source});\n`;

const total = (c: Change): number => c.linesAdded + c.linesRemoved;
const plainTotal = (c: Change): number => c.plainLinesAdded + c.plainLinesRemoved;

beforeAll(async () => {
  ({ root, prepared } = await preparedRepo('bakeoff-review-lines-', await repoFiles(path.join(TASK, 'repo'))));
  const scratch = path.join(root, 'gold');
  await git(['clone', '-q', '--no-hardlinks', prepared, scratch], { cwd: root });
  expect(await applyPatch(scratch, await readFile(GOLD, 'utf8'))).toEqual({ ok: true });
  fixed = await readFile(path.join(scratch, 'src/parse.mjs'), 'utf8');
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('a real fix hidden from review counts at least as many lines as the same fix written plainly', () => {
  let gold: Change;
  let plainFile: Change;

  beforeAll(async () => {
    const g = await variant(async (ws) => {
      expect(await applyPatch(ws, await readFile(GOLD, 'utf8'))).toEqual({ ok: true });
    });
    expect(g.testsPass).toBe(true);
    gold = g.change;
    // the twin of the hidden variants: the fixed module as an ordinary file, loaded the same way
    const p = await variant(async (ws) => {
      await writeFile(path.join(ws, '.fix.mjs'), fixed);
      await writeFile(path.join(ws, 'src/parse.mjs'), loader('readFileSync', `readFileSync(new URL('../.fix.mjs', import.meta.url)).toString('base64')`));
    });
    expect(p.testsPass).toBe(true);
    plainFile = p.change;
  });

  it('in the names of empty files (base64url, one chunk per name)', async () => {
    const encoded = Buffer.from(fixed).toString('base64url');
    const { change, testsPass } = await variant(async (ws) => {
      await mkdir(path.join(ws, '.fix'));
      for (let i = 0; i * 240 < encoded.length; i++) {
        await writeFile(path.join(ws, '.fix', `${String(i).padStart(3, '0')}${encoded.slice(i * 240, (i + 1) * 240)}`), '');
      }
      await writeFile(
        path.join(ws, 'src/parse.mjs'),
        loader('readdirSync', `Buffer.from(readdirSync(new URL('../.fix', import.meta.url)).sort().map((n) => n.slice(3)).join(''), 'base64url').toString('base64')`),
      );
    });
    expect(testsPass).toBe(true);
    expect(plainTotal(change), 'git alone does not see the code').toBeLessThan(plainTotal(plainFile) - 100);
    expect(total(change)).toBeGreaterThanOrEqual(total(plainFile));
    expect(total(change)).toBeGreaterThanOrEqual(total(gold));
  });

  it("in a symbolic link's target", async () => {
    const { change, testsPass } = await variant(async (ws) => {
      await symlink(fixed, path.join(ws, '.fix.mjs'));
      await writeFile(path.join(ws, 'src/parse.mjs'), loader('readlinkSync', `Buffer.from(readlinkSync(new URL('../.fix.mjs', import.meta.url))).toString('base64')`));
    });
    expect(testsPass).toBe(true);
    expect(total(change)).toBeGreaterThanOrEqual(total(plainFile));
    expect(total(change)).toBeGreaterThanOrEqual(total(gold));
  });

  it.each([
    ['U+2028', '\u2028'],
    ['a lone CR', '\r'],
  ])('on one line, its lines ended by %s', async (_name, terminator) => {
    const { change, testsPass } = await variant(async (ws) => {
      await writeFile(path.join(ws, 'src/parse.mjs'), fixed.replaceAll('\n', terminator));
    });
    expect(testsPass).toBe(true);
    expect(change.plainLinesAdded, 'one line for git').toBe(1);
    expect(total(change)).toBeGreaterThanOrEqual(total(gold));
    expect(change.linesAdded).toBeGreaterThanOrEqual(fixed.split('\n').length - 1);
  });
});
