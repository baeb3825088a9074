import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, ROOT } from './helpers.js';

/*
 * What each command loads before it works (issue 36: start-up near bare node). Every file a
 * process loads is listed by a loader hook; a command that pulls in a barrel, the queue client,
 * the price catalog or the site renderer without needing them fails here, naming the files.
 */

const HOOK = path.join(FIXTURES, 'bin/module-list-hook.mjs');
let scratch: string;

/** The files (absolute paths) a `node` process with `args` loaded, and its exit code. */
async function loadedBy(args: readonly string[], env: Record<string, string> = {}): Promise<{ files: string[]; exitCode: number | undefined; stderr: string }> {
  const list = path.join(scratch, `modules-${Math.random().toString(36).slice(2)}.txt`);
  const result = await execa(process.execPath, ['--import', HOOK, ...args], {
    cwd: ROOT,
    env: { NO_COLOR: '1', BAKEOFF_MODULE_LIST: list, BAKEOFF_CACHE_DIR: path.join(scratch, 'cache'), ...env },
    reject: false,
  });
  const text = await readFile(list, 'utf8').catch(() => '');
  return { files: [...new Set(text.split('\n').filter(Boolean))].map((f) => path.relative(ROOT, f)), exitCode: result.exitCode, stderr: String(result.stderr) };
}

/** The npm packages among `files`. */
function packages(files: readonly string[]): string[] {
  return [...new Set(files.flatMap((f) => /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1] ?? []))].sort();
}

/** Packages and files no command needs until it does the work that needs them. */
const HEAVY = ['bullmq', 'ioredis', '@pydantic/genai-prices', 'markdown-it', 'execa'];

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-start-up-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('start-up loads what the command needs', () => {
  it('--version loads at most 30 files, none from node_modules but commander', async () => {
    const { files, exitCode } = await loadedBy([BIN, '--version']);
    expect(exitCode).toBe(0);
    expect(packages(files)).toEqual(['commander']);
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(30);
  });

  it('report loads at most 124 files: the store, the view and the table, never the queue, prices, site, git client or the harnesses\' stream readers', async () => {
    const results = path.join(scratch, 'results');
    const save = `
      import { openStore } from ${JSON.stringify(path.join(ROOT, 'dist/store/open-store.js'))};
      const store = openStore(${JSON.stringify(results)}, { create: true });
      const run = { id: 'r1', suiteId: 's', suiteHash: 'h', controlsDigest: 'c', task: 't', agent: { id: 'gold', harness: 'builtin', version: null, model: null, effort: null },
        replay: 0, seed: null, level: null, outcome: { kind: 'solved' }, agentSec: 1, gradeSec: 1, costUsd: null, tokensIn: null, tokensOut: null, linesAdded: 1, linesRemoved: 0,
        points: 1, maxPoints: 1, orders: [{ order: 1, points: 1, maxPoints: 1 }], runtime: { sandbox: 'bwrap' }, startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:01Z' };
      store.saveRun(run, [], [], store.artifactsTempDir('r1'));
      store.close();`;
    await execa(process.execPath, ['--input-type=module', '-e', save]);
    for (const format of ['table', 'json']) {
      const { files, exitCode, stderr } = await loadedBy([BIN, 'report', results, '--format', format]);
      expect(exitCode, stderr).toBe(0);
      expect(packages(files).filter((p) => !['better-sqlite3', 'bindings', 'file-uri-to-path', 'commander'].includes(p))).toEqual([]);
      expect(packages(files)).toContain('better-sqlite3');
      // 124: the table's lean read of the runs (store/leaderboard-runs, store/shared-values) added two
      expect(files.length, files.join('\n')).toBeLessThanOrEqual(124);
    }
  });

  it('agents loads at most 90 files: the harness registry and its probes, never the stream readers\' zod schemas, the queue, prices, site or git client', async () => {
    const { files, exitCode, stderr } = await loadedBy([BIN, 'agents', '--json'], { BAKEOFF_HARNESS_DIR: path.join(scratch, 'no-harnesses') });
    expect(exitCode, stderr).toBe(0);
    expect(packages(files).filter((p) => HEAVY.includes(p) || p === 'zod')).toEqual([]);
    // the stream readers (`Harness.stream`) load on first use, not to list harnesses
    expect(files.filter((f) => /^dist\/agents\/harnesses\/(.*\/)?(parse-stream|read-transcript|stream-fields|stream-readers|transcript)\.js$/.test(f))).toEqual([]);
    expect(files.length, files.join('\n')).toBeLessThanOrEqual(90);
    expect(files.filter((f) => f.startsWith('dist/') && !/^dist\/(cli|agents|util|api\/(paths|agents|sweep-leftovers)|errors|version|types|sandbox\/(leftovers|workspace|cgroups))/.test(f))).toEqual([]);
  });

  it('no command loads the queue client, the price catalog or the site renderer before it runs', async () => {
    const commands = ['run', 'validate', 'verify', 'doctor', 'auth'];
    const loads = await Promise.all(
      commands.map(async (command) => {
        const { files, exitCode, stderr } = await loadedBy(['--input-type=module', '-e', `await import(${JSON.stringify(path.join(ROOT, 'dist/cli/commands', `${command}.js`))})`]);
        expect(exitCode, stderr).toBe(0);
        return [command, packages(files).filter((p) => HEAVY.includes(p) && p !== 'execa')] as const;
      }),
    );
    expect(Object.fromEntries(loads)).toEqual(Object.fromEntries(commands.map((c) => [c, []])));
  });
});
