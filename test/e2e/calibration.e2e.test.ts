import { chmod, readdir, readFile, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/suite/load-suite.js';
import { calibrationCopy } from './calibration-copy.js';
import { bakeoff, ROOT, tempDir } from './helpers.js';

interface JsonRun {
  task: string;
  agent: string;
  outcome: string;
  failReason: string | null;
  voidReason: string | null;
  points: number;
  maxPoints: number;
  seed: number | null;
  level: number | null;
  orders: { order: number; points: number; maxPoints: number }[];
  id: string;
}

describe('the calibration suite (work orders, generated checks)', () => {
  let suite: string;
  beforeAll(async () => {
    // seed 1 of the suite's two, at every level: half the validate time (bench/ and
    // busy-machine.e2e cover the rest); the committed lock is checked against the suite below
    suite = await calibrationCopy({ seeds: [1] });
  });

  it('the committed lock belongs to the suite as it is (validated after its last change)', async () => {
    const committed = JSON.parse(await readFile(path.join(ROOT, 'examples/calibration/bakeoff.lock.json'), 'utf8')) as { suite: { hash: string }; tasks: Record<string, { admitted: boolean }> };
    expect(committed.suite.hash).toBe((await loadSuite(path.join(ROOT, 'examples/calibration'))).hash);
    expect(Object.values(committed.tasks).map((t) => t.admitted)).toEqual([true, true, true]);
  });

  it('validate --adversarial proves the JS gold at every configured seed (here: 1) and level and the broken code below full, and no exploit of the library passes a task', async () => {
    const r = await bakeoff(['validate', suite, '--adversarial', '--concurrency', '3', '--json']);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { tasks: { id: string; admitted: boolean; checks: number; notes: string[] }[] };
    expect(out.tasks.map((t) => t.id).sort()).toEqual(['access-policy', 'build-cache', 'event-ledger']);
    for (const t of out.tasks) expect([t.id, t.admitted, t.checks]).toEqual([t.id, true, 64]);
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as {
      tasks: Record<string, { orders: { checks: Record<string, string> }[]; adversarialExploits?: number }>;
    };
    // issue 35: the calibration suite's tasks hold against the whole exploit library
    const { EXPLOIT_IDS } = await import('../../src/agents/exploits/registry.js');
    for (const t of out.tasks) {
      expect(lock.tasks[t.id]!.adversarialExploits, t.id).toBe(EXPLOIT_IDS.length);
      expect(t.notes, t.id).toContain(`adversarial admission: ${EXPLOIT_IDS.length} exploits tried, each graded failed`);
    }
    // one digest per seed × level, levels 1..3
    for (const task of Object.values(lock.tasks)) {
      for (const order of task.orders) expect(Object.keys(order.checks).filter((k) => /:[123]$/.test(k)).length).toBeGreaterThanOrEqual(3);
    }
    // 18 order × seed × level sets, each generated twice and scored by the gold twice
  }, 600_000);

  /**
   * One bake of gold, noop and the order diary (the agent of the fresh-session test), run once for
   * both tests that read it, with a python3 on its PATH that notes every call: the bake takes the
   * check sets validate kept, and never runs a generator (checks.py) again.
   */
  const DIARY = `command:node ${path.join(ROOT, 'test/fixtures/agents/order-diary.mjs')}`;
  let bake: Promise<{ out: string; report: { runs: JsonRun[] }; pythonCalls: string }> | undefined;
  const baked = () =>
    (bake ??= (async () => {
      const out = await tempDir();
      // readable by the agents' sandbox, which mounts the PATH's folders (the order diary lists /tmp)
      const spy = await tempDir();
      await chmod(spy, 0o755);
      const python = (await execa('sh', ['-c', 'command -v python3'])).stdout.trim();
      await writeFile(path.join(spy, 'python3'), `#!/bin/sh\necho "$*" >> ${spy}/calls\nexec ${python} "$@"\n`, { mode: 0o755 });
      const run = await bakeoff(['run', suite, '--agent', 'gold', '--agent', 'noop', '--agent', DIARY, '--concurrency', '4', '--out', out, '--json'], { env: { PATH: `${spy}:${process.env.PATH}` } });
      expect(run.exitCode, run.stderr).toBe(0);
      const pythonCalls = await readFile(path.join(spy, 'calls'), 'utf8').catch(() => '');
      return { out, report: JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: JsonRun[] }, pythonCalls };
    })());

  it('grades gold 3/3 projects with 192/192 points and noop none, saving every check input, with the check sets validate kept', async () => {
    const { out, report, pythonCalls } = await baked();
    // the bake asked python3 (its version, through the spy on PATH) and ran no generator
    expect(pythonCalls).toContain('--version');
    expect(pythonCalls).not.toContain('checks.py');
    const gold = report.runs.filter((r) => r.agent === 'gold');
    const noop = report.runs.filter((r) => r.agent === 'noop');
    expect(gold.filter((r) => r.outcome === 'solved')).toHaveLength(3);
    expect(gold.reduce((a, r) => a + r.points, 0)).toBe(192);
    expect(gold.reduce((a, r) => a + r.maxPoints, 0)).toBe(192);
    for (const r of gold) expect(r.orders.map((o) => [o.order, o.points, o.maxPoints])).toEqual([[1, 32, 32], [2, 32, 32]]);
    expect(noop.filter((r) => r.outcome === 'solved')).toHaveLength(0);
    for (const r of noop) {
      expect(r.failReason).toBe('checks-failed');
      expect(r.points).toBeLessThan(64);
      expect(r.seed).not.toBeNull();
      expect(r.level).not.toBeNull();
    }
    const saved = JSON.parse(await readFile(path.join(out, 'runs', gold[0]!.id, 'order-2', 'grade', 'checks.json'), 'utf8')) as {
      checks: { id: string; input: unknown; expected: unknown }[];
      results: { id: string; passed: boolean }[];
    };
    expect(saved.checks).toHaveLength(32);
    expect(saved.checks.every((c) => c.input !== undefined && c.expected !== undefined)).toBe(true);
    expect(saved.results.every((c) => c.passed)).toBe(true);
    expect(await readdir(path.join(out, 'runs', gold[0]!.id))).toEqual(['order-1', 'order-2']);
  }, 600_000);

  it('runs each order in a fresh session on the same files, with no grading results in between', async () => {
    const { out, report } = await baked();
    const run = report.runs.find((x) => x.task === 'event-ledger' && x.agent !== 'gold' && x.agent !== 'noop')!;
    expect(run.orders.map((o) => o.order)).toEqual([1, 2]);
    const patch = await readFile(path.join(out, 'runs', run.id, 'order-2', 'change.patch'), 'utf8');
    const diary = patch.split('\n').filter((l) => l.startsWith('+order='));
    expect(diary).toHaveLength(2);
    expect(diary[0]).toMatch(/^\+order=1 earlier=0 /);
    expect(diary[1]).toMatch(/^\+order=2 earlier=1 /);
    const prompts = await Promise.all([1, 2].map((n) => readFile(path.join(suite, 'tasks/event-ledger/orders', String(n), 'prompt.md'), 'utf8')));
    expect(diary[0]).toContain(JSON.stringify(prompts[0]!.split('\n')[0]));
    expect(diary[1]).toContain(JSON.stringify(prompts[1]!.split('\n')[0]));
    for (const line of diary) expect(line).toMatch(/grading=\[\]$/);
  }, 600_000);
});
