import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { type FileEdit, startModelServer } from '../../src/model-server/index.js';
import { readEvents, registeredRecipes } from './real-cli-recipes.js';

/**
 * The real agent CLIs, driven offline by the scripted model server: under the `gold` script each
 * must end with exactly the session's files and the script's final message; under a fault
 * script, with a failed session. Every registered harness runs, through the recipes in its
 * folder's `test-recipe.ts`, with the CLI its pin names: a missing CLI, or one reporting another
 * version, fails its tests unless BAKEOFF_MISSING_CLIS=<harness,…> names it (then they are
 * skipped, with a warning). `KEEP_SCRATCH=1` keeps each CLI's home, work dir, stdout and served
 * requests (requests.jsonl) for a look.
 */

const RECIPES = await registeredRecipes();

const calcBefore = [
  'export function add(a, b) {',
  '  return a + b;',
  '}',
  '',
  'export function sub(a, b) {',
  '  return a - b;',
  '}',
  '',
  'export function mul(a, b) {',
  '  return a + b;',
  '}',
  '',
  'export function div(a, b) {',
  '  return a / b;',
  '}',
  '',
].join('\n');

/** Modify in the middle (the changed line alone is not unique), create, delete, CRLF, no final newline. */
const EDITS: readonly FileEdit[] = [
  { path: 'src/calc.js', before: calcBefore, after: calcBefore.replace('mul(a, b) {\n  return a + b;', 'mul(a, b) {\n  return a * b;') },
  { path: 'docs/notes.md', before: null, after: '# Notes\n\nMultiplication now multiplies.\n' },
  { path: 'old.txt', before: 'obsolete\n', after: null },
  { path: 'win.txt', before: 'one\r\ntwo\r\nthree\r\nfour\r\n', after: 'one\r\ntwo\r\nTHREE\r\nfour\r\n' },
  { path: 'tail.txt', before: 'first\nsecond\nlast', after: 'first\nsecond\nlast, changed' },
  { path: 'mixed.txt', before: 'a\r\nb\nc\r\n', after: 'a\r\nB\nc\r\n' },
  { path: 'spaces.txt', before: 'x\ny\nz\n', after: 'x\ny  \nz\n' },
  { path: 'bare.txt', before: null, after: 'no final newline' },
];
const SUMMARY =
  'Done: updated src/calc.js, created docs/notes.md, deleted old.txt, updated win.txt, updated tail.txt, updated mixed.txt, updated spaces.txt, created bare.txt.';
const PROMPT = 'Fix mul in src/calc.js and make the other changes.';

const scratch = await mkdtemp(path.join(tmpdir(), 'bakeoff-real-clis-'));
afterAll(async () => {
  if (process.env.KEEP_SCRATCH === undefined) await rm(scratch, { recursive: true, force: true });
});

async function makeWorkdir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const edit of EDITS) {
    if (edit.before === null) continue;
    await mkdir(path.dirname(path.join(dir, edit.path)), { recursive: true });
    await writeFile(path.join(dir, edit.path), edit.before);
  }
  const git = (...args: string[]) => execa('git', args, { cwd: dir });
  await git('init', '-q');
  await git('add', '-A');
  await git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'before');
}

describe.concurrent('real agent CLIs against the gold script', () => {
  for (const recipe of RECIPES) {
    const { bin, problem } = recipe.cli;
    it.skipIf(recipe.cli.excused && problem !== null)(`${recipe.name} makes exactly the session's change and says it is done`, async ({ expect }) => {
      if (problem) throw new Error(problem);
      const root = path.join(scratch, recipe.name.replace(/[^a-z0-9]+/gi, '-'));
      const home = path.join(root, 'home');
      const workdir = path.join(root, 'work');
      await mkdir(home, { recursive: true });
      await makeWorkdir(workdir);
      const log = path.join(root, 'requests.jsonl');
      const server = await startModelServer({
        listen: { host: '127.0.0.1', port: 0 },
        script: 'gold',
        onRequestServed: (served, detail) => void appendFile(log, JSON.stringify({ ...served, body: detail.body }) + '\n'),
      });
      server.registerSession('*', { workspace: workdir, edits: EDITS });
      try {
        const { args, env } = await recipe.setup({ home, workdir, url: server.url, prompt: PROMPT });
        const result = await execa(bin, args, {
          cwd: workdir,
          env: { PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`, HOME: home, TERM: 'dumb', ...env },
          extendEnv: false,
          stdin: 'ignore',
          timeout: 45_000,
          reject: false,
        });
        await writeFile(path.join(root, 'stdout.txt'), result.stdout);
        await writeFile(path.join(root, 'stderr.txt'), result.stderr);
        const where = `(exit ${result.exitCode}; see ${root})\n${result.stderr.slice(-2000)}`;
        for (const edit of EDITS) {
          const file = path.join(workdir, edit.path);
          const actual = existsSync(file) ? await readFile(file, 'utf8') : null;
          expect(actual, `${edit.path} ${where}`).toBe(edit.after);
        }
        expect(recipe.finalMessage(readEvents(result.stdout)), where).toBe(SUMMARY);
        expect(result.exitCode, where).toBe(0);
        const calls = server.requests().filter((r) => r.reply.startsWith('tool:'));
        expect(calls.length).toBeGreaterThanOrEqual(EDITS.length);
      } finally {
        await server.close();
      }
    });
  }
});

describe.concurrent('real agent CLIs against the fault scripts', () => {
  // Only recipes that turn the CLI's retries off: there a fault ends the session at once.
  for (const recipe of RECIPES.filter((r) => r.faultExitCode !== undefined)) {
    const { bin, problem } = recipe.cli;
    for (const script of ['500', 'malformed']) {
      it.skipIf(recipe.cli.excused && problem !== null)(`${recipe.name} reports a failed session on the ${script} script`, async ({ expect }) => {
        if (problem) throw new Error(problem);
        const root = path.join(scratch, `${recipe.name}-${script}`);
        const home = path.join(root, 'home');
        await mkdir(home, { recursive: true });
        await makeWorkdir(path.join(root, 'work'));
        const server = await startModelServer({ listen: {}, script });
        try {
          const { args, env } = await recipe.setup({ home, workdir: path.join(root, 'work'), url: server.url, prompt: PROMPT });
          const result = await execa(bin, args, {
            cwd: path.join(root, 'work'),
            env: { PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`, HOME: home, TERM: 'dumb', ...env },
            extendEnv: false,
            stdin: 'ignore',
            timeout: 30_000,
            reject: false,
          });
          await writeFile(path.join(root, 'stdout.txt'), result.stdout);
          expect(result.timedOut).toBe(false);
          expect(recipe.finalMessage(readEvents(result.stdout)), result.stdout.slice(-1500)).toBeNull();
          // pi exits 0 even when the session failed (agent-clis.md §6); the others exit 1.
          expect(result.exitCode).toBe(recipe.faultExitCode);
          expect(server.requests().length).toBeLessThanOrEqual(2); // Claude Code retries a broken stream once
        } finally {
          await server.close();
        }
      });
    }
  }
});
