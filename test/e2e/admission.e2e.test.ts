import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, copySuite, FIXTURES } from './helpers.js';

type Verdict = { id: string; admitted: boolean; reason?: string };

describe('bakeoff validate rejects tasks unfit to measure', () => {
  let server: Server;
  let verdicts: Map<string, Verdict>;
  let exitCode: number | undefined;

  beforeAll(async () => {
    // The needs-network task's hidden test fetches this host service; inside the
    // no-network sandbox it must be unreachable.
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(47123, '127.0.0.1', resolve));
    const suite = await copySuite(path.join(FIXTURES, 'suites/rejects'));
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

  it.each([
    ['gold-does-not-fix', /gold patch does not make every test pass/],
    ['flaky', /flaky: two gold runs disagree/],
    ['date-dependent', /depends on the date or time zone/],
    ['needs-network', /needs the network/],
  ])('rejects %s with a clear reason', (id, reason) => {
    const v = verdicts.get(id);
    expect(v?.admitted).toBe(false);
    expect(v?.reason).toMatch(reason);
  });
});
