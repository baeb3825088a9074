import { execSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES, tempDir } from './helpers.js';
import { storedRuns } from './process-helpers.js';

/*
 * A bake on a machine that breaks under it, off a terminal (stdio are pipes), as CI runs it:
 * py-add's setup fails at run time (a marker file appears after validate admitted the task;
 * the setup prints a terminal escape sequence), and git fails `read-tree` in any workspace
 * holding BREAK-GIT (test/fixtures/bin/broken-git, first on PATH), which the `command:touch
 * BREAK-GIT` agent creates, and once more anywhere after that (bakeoff's control capture of the
 * unchanged repo fails too, so the machine is at fault, not the change): that run is void
 * `infra-error`. The setup's output is escaped where it is read, so the JSON carries it escaped. gold and noop are graded.
 */

const BREAKER = 'command:touch BREAK-GIT';
let suite: string;
let marker: string;
let env: Record<string, string>;

beforeAll(async () => {
  suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
  marker = path.join(await tempDir(), 'mirror-down');
  const manifest = path.join(suite, 'tasks/py-add/task.yaml');
  const setup = `setup: |-\n  if [ -e ${marker} ]; then printf 'cannot reach the mirror \\033[31mE42\\033[0m\\n'; exit 1; fi`;
  await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('setup: null', setup));
  const validated = await bakeoff(['validate', suite], { env: { BAKEOFF_CACHE_DIR: await tempDir() } });
  expect(validated.exitCode, validated.stderr).toBe(0);
  await writeFile(marker, '');
  const realGit = execSync('command -v git', { encoding: 'utf8' }).trim();
  const flag = path.join(await tempDir(), 'git-broken');
  env = { PATH: `${path.join(FIXTURES, 'bin/broken-git')}:${process.env.PATH}`, REAL_GIT: realGit, BROKEN_GIT_FLAG: flag, BAKEOFF_CACHE_DIR: await tempDir() };
});

const ESC = '\x1b';

describe('notes and errors off a terminal', () => {
  it('with --json: setup-failed and infra-error reach stderr as plain, escaped lines and the JSON carries them; the report ranks the void runs', async () => {
    const out = await tempDir();
    const run = await bakeoff(['run', suite, '--agent', 'gold', '--agent', 'noop', '--agent', BREAKER, '--runs', '1', '--concurrency', '1', '--out', out, '--json'], { env });
    expect(run.exitCode, run.stderr).toBe(3);
    expect(run.stderr).not.toContain(ESC);
    expect(run.stderr).toContain('bakeoff: error: setup failed for py-add: its runs are void (setup command exited with 1: cannot reach the mirror \\x1b[31mE42\\x1b[0m (log: ');
    expect(run.stderr).toMatch(/bakeoff: error: run \S+ \(add, command:touch BREAK-GIT\) is void: git read-tree HEAD failed in .*: fatal: simulated failure \\x1b\]0;pwned\\x07\\x1b\[2J of git read-tree$/m);

    const summary = JSON.parse(run.stdout) as { errors: string[]; notes: string[] };
    expect(summary.errors).toHaveLength(2);
    expect(summary.errors[0]).toContain(`setup failed for py-add: its runs are void (setup command exited with 1: cannot reach the mirror \\x1b[31mE42\\x1b[0m (log: `);
    expect(summary.errors[1]).toMatch(/^run \S+ \(add, command:touch BREAK-GIT\) is void: git read-tree HEAD failed/);

    const runs = storedRuns(path.join(out, 'bakeoff.db'));
    expect(runs.map((r) => `${r.task} ${r.agent} ${r.outcome} ${r.reason ?? ''}`).sort()).toEqual([
      'add command:touch BREAK-GIT void infra-error',
      'add gold solved ',
      'add noop failed tests-failed',
      'py-add command:touch BREAK-GIT void setup-failed',
      'py-add gold void setup-failed',
      'py-add noop void setup-failed',
    ]);
    // a void record carries every runtime field a graded run does, with the same values
    const graded = runs.find((r) => r.outcome === 'solved')!.runtime;
    expect(graded.workspace).toMatch(/^(overlay|copy)$/);
    for (const r of runs) expect(r.runtime).toEqual(graded);

    const table = await bakeoff(['report', out]);
    expect(table.exitCode, table.stderr).toBe(0);
    for (const agent of ['gold', 'noop', BREAKER]) expect(table.stdout).toContain(agent);
    const json = await bakeoff(['report', out, '--format', 'json']);
    expect(json.exitCode, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as { mixed: unknown[]; ranking: { refused: boolean }; agents: { id: string; rank: number }[] };
    expect(report.mixed).toEqual([]);
    expect(report.ranking.refused).toBe(false);
    expect(report.agents.map((a) => [a.id, a.rank])).toEqual([['gold', 1], ['noop', 2], [BREAKER, 3]]);
  });

  it('without --json, off a terminal, the same errors are printed as plain lines', async () => {
    const out = await tempDir();
    const run = await bakeoff(['run', suite, '--agent', BREAKER, '--runs', '1', '--concurrency', '1', '--out', out], { env });
    expect(run.exitCode, run.stderr).toBe(3);
    expect(run.stderr).not.toContain(ESC);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('bakeoff: error: '));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('setup failed for py-add');
    expect(lines[1]).toContain('(add, command:touch BREAK-GIT) is void: git read-tree HEAD failed');
  });
});
