import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from '../helpers.js';
import { oneTaskSuite, readStore, requireHarnesses } from './agent-helpers.js';

interface JsonRun { agent: string; outcome: string; failReason: string | null; voidReason: string | null }
interface JsonAgent { id: string; harness: string; model: string | null; effort: string | null }

/*
 * Named agents with settings, run for real: the name is the agent's id, `@lowest`-style effort
 * resolves per harness, and `args` reach the CLI (pi limited to its read tool cannot edit, so the
 * scripted gold model has no way to make the change).
 */
describe('an agents file', () => {
  let runs: JsonRun[] = [];
  let agents: JsonAgent[] = [];
  let out = '';

  beforeAll(async () => {
    await requireHarnesses();
    const suite = await oneTaskSuite(60);
    const dir = await tempDir();
    const file = path.join(dir, 'agents.yaml');
    await writeFile(
      file,
      [
        'agents:',
        '  pi-lowest: { harness: pi, model: anthropic/claude-sonnet-4-5, effort: lowest, env: { PI_SKIP_VERSION_CHECK: "1" } }',
        '  pi-read-only: { harness: pi, model: anthropic/claude-sonnet-4-5, args: [--tools, read] }',
        '',
      ].join('\n'),
    );
    out = await tempDir();
    const r = await bakeoff(['run', suite, '--agents', file, '--upstream', 'scripted:gold', '--runs', '1', '--out', out, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: JsonRun[]; agents: JsonAgent[] };
    runs = report.runs;
    agents = report.agents;
  }, 300_000);

  it('runs each named agent under its name, with the effort resolved', () => {
    expect(agents.map((a) => [a.id, a.harness, a.model, a.effort]).sort()).toEqual([
      ['pi-lowest', 'pi', 'anthropic/claude-sonnet-4-5', 'off'],
      ['pi-read-only', 'pi', 'anthropic/claude-sonnet-4-5', null],
    ]);
    expect(runs.find((r) => r.agent === 'pi-lowest')?.outcome).toBe('solved');
  });

  it('records each agent\'s settings with its runs: its args and the names of its env variables, never their values', () => {
    const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT agent_id, agent_json FROM runs ORDER BY agent_id').all() as { agent_id: string; agent_json: string }[];
      expect(rows.map((r) => [r.agent_id, (JSON.parse(r.agent_json) as { settings?: unknown }).settings])).toEqual([
        ['pi-lowest', { args: [], env: ['PI_SKIP_VERSION_CHECK'] }],
        ['pi-read-only', { args: ['--tools', 'read'], env: [] }],
      ]);
      expect(rows.find((r) => r.agent_id === 'pi-lowest')!.agent_json).not.toContain('"1"');
    } finally {
      db.close();
    }
  });

  it('passes the agent\'s args to the CLI', () => {
    expect(runs.find((r) => r.agent === 'pi-read-only')).toMatchObject({ outcome: 'failed', failReason: 'tests-failed' });
    expect(readStore(out).requests.length).toBeGreaterThan(0);
  });
});
