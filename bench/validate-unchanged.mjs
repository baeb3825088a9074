// `validate` of an unchanged suite against the same suite validated cold, in the same run: the
// starter suite (JS, TS with npm ci, Python, Rust) validated with an empty cache folder (cold:
// every repo prepared, every check run), then with every check run on the prepared repos
// (--recheck: what validate cost before the verdict cache), then unchanged (the verdict cache
// keeps each admission: same task hash, controls, prepared repo, sandbox and runtimes). The
// unchanged validate still loads the suite, hashes it, probes the runtimes and the sandbox and
// compares the lock.
// Goal (issue 36): unchanged ≥ 5× faster than cold.
// Usage: npm run build && node bench/validate-unchanged.mjs [repeats=3]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from './median.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/bakeoff.js');
const REPEATS = Number(process.argv[2] ?? 3);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bench-validate-unchanged-'));
const suite = path.join(scratch, 'suite');
cpSync(path.join(ROOT, 'examples/starter'), suite, { recursive: true });

function validate(cache, ...flags) {
  const started = performance.now();
  const out = execFileSync(process.execPath, [BIN, 'validate', suite, '--json', '--concurrency', '2', ...flags], { env: { ...process.env, BAKEOFF_CACHE_DIR: cache }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 26 });
  const json = JSON.parse(out);
  const admitted = json.tasks.filter((t) => t.admitted).length;
  if (admitted !== json.tasks.length) throw new Error(`${admitted} of ${json.tasks.length} starter tasks admitted`);
  return { ms: performance.now() - started, kept: json.keptVerdicts.length, tasks: json.tasks.length };
}

const times = { cold: [], recheck: [], unchanged: [] };
let tasks = 0;
for (let r = 0; r < REPEATS; r++) {
  const cache = path.join(scratch, `cache-${r}`);
  const cold = validate(cache);
  tasks = cold.tasks;
  if (cold.kept !== 0) throw new Error(`cold validate kept ${cold.kept} verdicts from an empty cache`);
  times.cold.push(cold.ms);
  const recheck = validate(cache, '--recheck');
  if (recheck.kept !== 0) throw new Error(`--recheck kept ${recheck.kept} verdicts`);
  times.recheck.push(recheck.ms);
  const unchanged = validate(cache);
  if (unchanged.kept !== tasks) throw new Error(`unchanged validate kept ${unchanged.kept} of ${tasks} verdicts`);
  times.unchanged.push(unchanged.ms);
  rmSync(cache, { recursive: true, force: true });
}
const cold = median(times.cold);
console.log(`validate of the starter suite (${tasks} tasks), medians of ${REPEATS}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
for (const [label, xs] of Object.entries(times)) {
  const m = median(xs);
  console.log(`${label.padEnd(12)}${(m / 1000).toFixed(1).padStart(8)} s${(cold / m).toFixed(1).padStart(8)}× faster than cold`);
}
console.log(`goal: unchanged ≥ 5× faster than cold: ${cold / median(times.unchanged) >= 5 ? 'met' : 'not met'}`);
rmSync(scratch, { recursive: true, force: true });
