// Real agents, per harness: a dry run of the starter suite with the five CLIs against the
// scripted gold model (`--upstream scripted:gold`), sandboxed. Prints per harness the median
// session time (CLI start to exit, inside the sandbox), model requests per session, and the
// median model-request latency the proxy recorded (proxy + scripted server + bridge).
// Usage: npm run bench   (needs `bakeoff agents install`)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { median } from './median.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const AGENTS = ['claude-code:claude-sonnet-4-5', 'codex:gpt-5.5@lowest', 'pi:anthropic/claude-sonnet-4-5', 'opencode:anthropic/claude-sonnet-4-5', 'gemini-cli:gemini-2.5-pro'];
const RUNS = Number(process.env.BENCH_RUNS ?? 2);

const out = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-agents-'));
try {
  const args = [path.join(ROOT, 'bin/bakeoff.js'), 'run', path.join(ROOT, 'examples/starter'), '--upstream', 'scripted:gold', '--runs', String(RUNS), '--concurrency', '2', '--out', out, '--json'];
  for (const a of AGENTS) args.push('--agent', a);
  const started = performance.now();
  execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const wall = (performance.now() - started) / 1000;
  const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
  const runs = db.prepare('SELECT id, agent_id, agent_json, outcome, agent_sec, grade_sec FROM runs').all();
  console.log(`${runs.length} runs (${AGENTS.length} harnesses × 4 starter tasks × ${RUNS}) in ${wall.toFixed(1)} s wall, concurrency 2\n`);
  console.log('harness'.padEnd(40) + 'solved'.padStart(8) + 'session s (median)'.padStart(20) + 'requests/run'.padStart(14) + 'request ms (median)'.padStart(21));
  for (const agent of AGENTS) {
    const harness = agent.split(':')[0];
    const mine = runs.filter((r) => JSON.parse(r.agent_json).harness === harness);
    const requests = db.prepare(`SELECT latency_ms FROM requests WHERE run_id IN (${mine.map(() => '?').join(',')}) AND format IS NOT NULL`).all(...mine.map((r) => r.id));
    console.log(
      (mine[0]?.agent_id ?? agent).padEnd(40) +
        `${mine.filter((r) => r.outcome === 'solved').length}/${mine.length}`.padStart(8) +
        median(mine.map((r) => r.agent_sec)).toFixed(2).padStart(20) +
        (requests.length / mine.length).toFixed(1).padStart(14) +
        median(requests.map((r) => r.latency_ms)).toFixed(1).padStart(21),
    );
  }
  db.close();
} finally {
  rmSync(out, { recursive: true, force: true });
}
