// Check time on a quiet and on a saturated machine: the calibration gold's heaviest order
// (access-policy, order 1, seed 1, level 3: 32 checks) through the public runChecks, first
// alone, then with three busy-loop processes and four batches at once (like
// `--concurrency 4`). Prints wall and CPU time per check, loaded/quiet ratios measured in the
// same run, the heaviest check's CPU time against the 500 ms limit, whether every verdict is
// the same, and how the per-thread CPU clock compares with getrusage on the quiet run.
// Usage: npm run build && node bench/checks-under-load.mjs   (BENCH_ROUNDS, BENCH_LOOPS)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSources } from '../dist/grade/checks/load-sources.js';
import { runChecks } from '../dist/grade/checks/run-checks.js';
import { DEFAULT_CHECK_LIMITS } from '../dist/grade/checks/types.js';
import { generateChecks } from '../dist/run/generate-checks.js';
import { median } from './median.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LOOPS = Number(process.env.BENCH_LOOPS ?? 3);
const CONCURRENCY = 4;
const TASK = path.resolve(import.meta.dirname, '../examples/calibration/tasks/access-policy');

const sum = (xs) => xs.reduce((a, b) => a + b, 0);

const workspace = mkdtempSync(path.join(os.tmpdir(), 'bench-load-'));
cpSync(path.join(TASK, 'repo'), workspace, { recursive: true });
execFileSync('git', ['apply', path.join(TASK, 'orders/1/gold.patch')], { cwd: workspace });
const { files } = await loadSources(workspace, 'src');
const { checks } = await generateChecks(path.join(TASK, 'orders/1/hidden'), 1, 3);
await runChecks({ files, entry: 'src/index.js', checks: checks.slice(0, 1) }); // compiles the engine once, outside the figures

/** `batches` runChecks calls at once, `ROUNDS` times; every check's result. */
async function measure(batches) {
  const results = [];
  for (let round = 0; round < ROUNDS; round++) {
    const all = await Promise.all(Array.from({ length: batches }, () => runChecks({ files, entry: 'src/index.js', checks })));
    results.push(...all.flat());
  }
  return results;
}

const usage0 = process.cpuUsage();
const quiet = await measure(1);
const usage = process.cpuUsage(usage0);
const loops = Array.from({ length: LOOPS }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
await new Promise((resolve) => setTimeout(resolve, 300));
let loaded;
try {
  loaded = await measure(CONCURRENCY);
} finally {
  for (const loop of loops) loop.kill('SIGKILL');
  rmSync(workspace, { recursive: true, force: true });
}

const row = (label, results) => {
  const wall = results.map((r) => r.durationMs);
  const cpu = results.map((r) => r.cpuMs);
  return { label, passed: results.filter((r) => r.passed).length, total: results.length, wallMedian: median(wall), wallMax: Math.max(...wall), cpuMedian: median(cpu), cpuMax: Math.max(...cpu), cpuSum: sum(cpu) };
};
const q = row('quiet', quiet);
const l = row(`${LOOPS} busy loops + ${CONCURRENCY} batches at once`, loaded);
const limit = DEFAULT_CHECK_LIMITS.cpuMs;
console.log(`check time, calibration gold access-policy order 1 seed 1 level 3 (${checks.length} checks), ${ROUNDS} rounds; CPU = the worker thread's own CPU time (the limit's clock)`);
for (const r of [q, l]) {
  console.log(
    `${r.label.padEnd(34)} ${String(r.passed).padStart(4)}/${r.total} passed  wall median ${r.wallMedian.toFixed(1).padStart(6)} ms max ${r.wallMax.toFixed(0).padStart(5)} ms  ` +
      `CPU median ${r.cpuMedian.toFixed(1).padStart(6)} ms max ${r.cpuMax.toFixed(0).padStart(4)} ms (${((100 * r.cpuMax) / limit).toFixed(0)}% of the ${limit} ms limit)`,
  );
}
console.log(`loaded/quiet: wall median ×${(l.wallMedian / q.wallMedian).toFixed(2)}, wall max ×${(l.wallMax / q.wallMax).toFixed(2)}; CPU median ×${(l.cpuMedian / q.cpuMedian).toFixed(2)}, CPU max ×${(l.cpuMax / q.cpuMax).toFixed(2)}`);
const sameVerdicts = quiet.every((r, i) => loaded.filter((_, j) => j % checks.length === i % checks.length).every((x) => x.passed === r.passed && x.failure === r.failure));
console.log(`same verdict for every check quiet and loaded: ${sameVerdicts ? 'yes' : 'NO'}`);
console.log(
  `clock check (quiet run): per-check CPU summed ${q.cpuSum.toFixed(0)} ms; getrusage of the whole process ${((usage.user + usage.system) / 1000).toFixed(0)} ms ` +
    `(ratio ${(q.cpuSum / ((usage.user + usage.system) / 1000)).toFixed(3)}; the rest is the host thread, worker start-up and GC threads)`,
);
