import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRunnerCommand } from './resolve-command.js';

async function prepared(bins: readonly string[], pkg: object): Promise<string> {
  const repo = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-resolve-'));
  await mkdir(path.join(repo, 'node_modules', '.bin'), { recursive: true });
  for (const bin of bins) await writeFile(path.join(repo, 'node_modules', '.bin', bin), '#!/bin/sh\n');
  await writeFile(path.join(repo, 'package.json'), JSON.stringify(pkg));
  return repo;
}

describe('resolveRunnerCommand', () => {
  const repoDir = '/grading/w';

  it("runs npx <name> as the prepared repo's node_modules/.bin/<name>, by absolute path in the grading copy, with that folder first on PATH", async () => {
    const preparedRepo = await prepared(['vitest', 'tape'], { name: 'range-check' });
    const r = resolveRunnerCommand('npx vitest run', { preparedRepo, repoDir, pathEnv: '/usr/bin' });
    expect(r.command).toBe("'/grading/w/node_modules/.bin/vitest' run");
    expect(r.env).toEqual({ PATH: '/grading/w/node_modules/.bin:/usr/bin' });
    expect(r.resolved).toEqual([{ name: 'vitest', path: '/grading/w/node_modules/.bin/vitest' }]);
    expect(resolveRunnerCommand("CI=1 FOO='a b' npx tape 'test/*.js' && echo done; npx vitest", { preparedRepo, repoDir, pathEnv: '' }).command).toBe(
      "CI=1 FOO='a b' '/grading/w/node_modules/.bin/tape' 'test/*.js' && echo done; '/grading/w/node_modules/.bin/vitest'",
    );
  });

  it('leaves to npx what the prepared repo cannot answer: its own bin of that name, flags, versions, a name it lacks, npx as an argument', async () => {
    const preparedRepo = await prepared(['vitest', 'mytool'], { name: 'x', bin: { mytool: 'cli.js' } });
    for (const command of ['npx mytool --check', 'npx -y vitest run', 'npx vitest@1 run', 'npx jest', 'echo npx vitest', 'node_modules/.bin/vitest run']) {
      const r = resolveRunnerCommand(command, { preparedRepo, repoDir, pathEnv: '/usr/bin' });
      expect(r, command).toEqual({ command, env: {}, resolved: [] });
    }
    const single = await prepared(['solo'], { name: '@scope/solo', bin: 'cli.js' });
    expect(resolveRunnerCommand('npx solo', { preparedRepo: single, repoDir, pathEnv: '' }).resolved).toEqual([]);
  });
});
