// How often the red-team attacks on the tripwire groups (test/fixtures/hostile-battery/tripwire-*.mjs but
// tripwire-shapes.mjs, issue 30 item 3)
// solve a task with no fix, and how many of their group picks were not blind: bakes each attack
// as a `command:` agent on a validated suite (the starter suite by default), BENCH_RUNS runs per
// task (default 3), and prints per task the runs solved, failed (by reason) and void, and the
// picks the attack logged in the graded test output ("group of N: <name> by control site").
// Not asserted in a test: the attack is not contained everywhere (decision 002, "What groups do
// not stand against"); this measures it.
// Usage: npm run build && node bench/tripwire-attacks.mjs [validated suite] [attack.mjs…]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/bakeoff.js');
const KIT = path.join(ROOT, 'test/fixtures/hostile-battery/kit.mjs');
const SUITE = path.resolve(process.argv[2] ?? path.join(ROOT, 'examples/starter'));
const named = process.argv.slice(3);
const BATTERY = path.join(ROOT, 'test/fixtures/hostile-battery');
const PICK = path.join(BATTERY, 'tripwire-pick.cjs');
const ATTACKS = named.length > 0 ? named.map((a) => path.resolve(a)) : readdirSync(BATTERY).filter((f) => /^tripwire-.*\.mjs$/.test(f) && f !== 'tripwire-shapes.mjs').map((f) => path.join(BATTERY, f));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** Every file under `dir` (the run folders' logs), as text. */
function texts(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const s = statSync(p);
    if (s.isDirectory()) out.push(...texts(p));
    else if (s.size < 20 * 1024 * 1024 && /\.(log|txt|json)$/.test(name)) out.push(readFileSync(p, 'utf8'));
  }
  return out;
}

for (const attack of ATTACKS) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-tripwire-attacks-'));
  try {
    const agent = `command:node ${attack} ${KIT} ${PICK}`;
    execFileSync(process.execPath, [BIN, 'run', SUITE, '--agent', agent, '--runs', String(RUNS), '--concurrency', '3', '--out', out, '--json'], { stdio: ['ignore', 'ignore', 'inherit'] });
    const report = JSON.parse(execFileSync(process.execPath, [BIN, 'report', out, '--format', 'json'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }));
    console.log(`${path.basename(attack)} on ${SUITE} (${RUNS} runs a task)`);
    console.log('task                          solved  failed (reasons)                          void');
    const tasks = [...new Set(report.runs.map((r) => r.task))].sort();
    for (const task of tasks) {
      const runs = report.runs.filter((r) => r.task === task);
      const reasons = runs.filter((r) => r.outcome === 'failed').map((r) => r.failReason);
      const count = (o) => runs.filter((r) => r.outcome === o).length;
      console.log(`${task.padEnd(30)}${String(count('solved')).padStart(6)}  ${String(count('failed')).padStart(6)} ${JSON.stringify(reasons).padEnd(36)} ${String(count('void')).padStart(4)}`);
    }
    const picks = texts(path.join(out, 'runs')).flatMap((t) => t.match(/group of \d+: \S+ by [a-z ,]+/g) ?? []);
    const by = (how) => picks.filter((p) => p.endsWith(`by ${how}`)).length;
    console.log(`group picks logged: ${picks.length} (control site ${by('control site')}, copy passed ${by('copy passed')}, copy passed then blind ${by('copy passed, blind among the rest')}, blind ${by('blind')})`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
