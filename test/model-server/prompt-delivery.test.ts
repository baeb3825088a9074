import { execa } from 'execa';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { levelSourceOf } from '../../src/agents/effort-levels.js';
import { exampleOf } from '../../src/agents/harnesses/index.js';
import { installDirOf } from '../../src/agents/install-harness.js';
import { startModelServer } from '../../src/model-server/index.js';
import { installedClis } from '../../src/agents/installed-clis.test-support.js';

/**
 * What the model sees of a prompt: every registered harness's CLI, started exactly as its
 * `setup()` says (argv, stdin, home files, environment), against bakeoff's scripted model. The
 * prompt must arrive byte for byte as one text block of the first request — markdown that starts
 * with `- ` or mentions `@file`, tabs, blank lines and trailing newlines included — and never on
 * the CLI's command line. pi trims leading whitespace off stdin (the one documented alteration).
 * A CLI that is missing or off its pin fails unless BAKEOFF_MISSING_CLIS names it.
 */

const CLIS = await installedClis();
const PROMPTS = {
  markdown: '- fix @README.md: `add` is wrong\n\n\t- keep --flags as they are\n\nThanks!\n\n\n',
  indented: '    const x = 1; // why does this throw?\n',
};

const scratch = await mkdtemp(path.join(tmpdir(), 'bakeoff-prompt-delivery-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Every string in a JSON request body (the wire formats nest text blocks differently). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe.concurrent('the prompt reaches the model byte for byte, off the command line', () => {
  for (const cli of CLIS) {
    for (const [kind, prompt] of Object.entries(PROMPTS)) {
      it.skipIf(cli.excused && cli.problem !== null)(`${cli.name}: ${kind}`, async ({ expect }) => {
        if (cli.problem) throw new Error(cli.problem);
        const root = await mkdtemp(path.join(scratch, `${cli.name}-`));
        const home = path.join(root, 'home');
        const work = path.join(root, 'work');
        await mkdir(home, { recursive: true });
        await mkdir(work, { recursive: true });
        await execa('git', ['init', '-q'], { cwd: work });
        const bodies: unknown[] = [];
        const server = await startModelServer({ listen: { host: '127.0.0.1', port: 0 }, script: 'gold', onRequestServed: (_served, detail) => void bodies.push(detail.body) });
        server.registerSession('*', { workspace: work, edits: [] });
        try {
          const levels = await levelSourceOf(cli.harness, process.env);
          const setup = cli.harness.setup({
            installDir: installDirOf(cli.harness), home, workspace: work, prompt, model: exampleOf(cli.harness).model, effort: null,
            baseUrl: server.url, apiKey: 'sk-dummy', prices: null, ...(levels.text === null ? {} : { catalog: levels.text }),
          });
          for (const [file, content] of Object.entries(setup.homeFiles)) {
            await mkdir(path.dirname(path.join(home, file)), { recursive: true });
            await writeFile(path.join(home, file), content);
          }
          // never on the command line: no argument holds the prompt's text
          const words = prompt.trim().split(/\s+/).filter((w) => w.length > 3);
          expect(setup.argv.filter((arg) => words.some((w) => arg.includes(w)))).toEqual([]);
          const result = await execa(setup.argv[0]!, setup.argv.slice(1), {
            cwd: work, env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, TERM: 'dumb', ...setup.env },
            extendEnv: false, input: setup.stdin ?? '', timeout: 60_000, reject: false,
          });
          const where = `(exit ${result.exitCode})\n${result.stderr.slice(-1500)}`;
          expect(bodies.length, where).toBeGreaterThan(0);
          const expected = cli.name === 'pi' ? prompt.trimStart() : prompt;
          expect(strings(bodies[0]), where).toContain(expected);
        } finally {
          await server.close();
        }
      });
    }
  }
});
