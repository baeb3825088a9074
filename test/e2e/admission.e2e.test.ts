import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES } from './helpers.js';

type Verdict = { id: string; admitted: boolean; reason?: string };

describe('bakeoff validate rejects tasks unfit to measure', () => {
  let server: Server;
  let verdicts: Map<string, Verdict>;
  let exitCode: number | undefined;
  let suite: string;

  beforeAll(async () => {
    // The needs-network task's hidden test fetches this host service; inside the
    // no-network sandbox it must be unreachable.
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(47123, '127.0.0.1', resolve));
    suite = await copySuite(path.join(FIXTURES, 'suites/rejects'));
    const result = await bakeoff(['validate', suite, '--json']);
    exitCode = result.exitCode;
    const out = JSON.parse(result.stdout) as { tasks: Verdict[] };
    verdicts = new Map(out.tasks.map((t) => [t.id, t]));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('exits 1 and keeps the good task admitted', () => {
    expect(exitCode).toBe(1);
    expect(verdicts.get('ok-task')?.admitted).toBe(true);
  });

  it('admits a task whose known failure fails with and without the change, and expects it of no run', async () => {
    expect(verdicts.get('known-failure')?.admitted, verdicts.get('known-failure')?.reason).toBe(true);
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { tasks: Record<string, { orders: { failToPass: string[]; passToPass: string[] }[] }> };
    const expected = lock.tasks['known-failure']!.orders.flatMap((o) => [...o.failToPass, ...o.passToPass]);
    expect(expected).toContain('test/clamp.test.mjs::keeps values inside the range');
    expect(expected.some((id) => id.startsWith('test/legacy.test.mjs'))).toBe(false);
    const tasksMd = await readFile(path.join(suite, 'TASKS.md'), 'utf8');
    expect(tasksMd).toContain('`known-failure`: `test/legacy.test.mjs::formats with Intl.DurationFormat` — Intl.DurationFormat arrived in Node 23');
  });

  it("admits a pytest task whose parameter ids carry object addresses, which differ in every run: the address is not part of the id", async () => {
    expect(verdicts.get('pytest-object-ids')?.admitted, verdicts.get('pytest-object-ids')?.reason).toBe(true);
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { tasks: Record<string, { orders: { failToPass: string[] }[] }> };
    expect(lock.tasks['pytest-object-ids']!.orders[0]!.failToPass.filter((id) => id.includes('test_adds_pairs'))).toEqual([
      'tests/test_calc_hidden.py::test_adds_pairs[<test_calc_hidden.Pair object at 0x…>]',
      'tests/test_calc_hidden.py::test_adds_pairs[<test_calc_hidden.Pair object at 0x…>] #2',
    ]);
  });

  it.each([
    ['gold-does-not-fix', /gold patch does not make every test pass/],
    ['flaky', /flaky/],
    ['flaky-baseline', /flaky on the unchanged repo: its runs baseline and baseline-2 disagree on test\/timing.test.mjs::a 5 ms timer fires within \d+ ms of its time \((pass|fail), then (pass|fail)\).* \(see their logs\)$/],
    ['known-failure-passes', /knownFailures: "test\/clamp.test.mjs::keeps values inside the range" passes with the gold patch; remove it/],
    ['date-dependent', /depends on the date or time zone/],
    ['needs-network', /needs the network/],
  ])('rejects %s with a clear reason', (id, reason) => {
    const v = verdicts.get(id);
    expect(v?.admitted).toBe(false);
    expect(v?.reason).toMatch(reason);
  });
});
