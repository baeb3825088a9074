// What `validate --task` saves a suite author: one task of an 18-task suite validated again,
// against the whole suite validated, measured in the same run. The suite is the starter's four
// tasks (JS, TS with npm ci, Python, Rust) copied under 18 ids; every copy is admitted in full
// (the prepared-repo cache shares setups between copies of one task, as it would between tasks
// of one repository). The figure: --task's median wall time as a multiple of one task's share
// of the whole validate (whole time × concurrency / tasks).
// Usage: npm run build && node bench/validate-task.mjs [tasks=18] [repeats=3]
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/bakeoff.js');
const TASKS = Number(process.argv[2] ?? 18);
const REPEATS = Number(process.argv[3] ?? 3);
const CONCURRENCY = 2;

const suite = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-validate-task-')), 'suite');
cpSync(path.join(ROOT, 'examples/starter'), suite, { recursive: true });
rmSync(path.join(suite, 'bakeoff.lock.json'), { force: true });
const originals = readdirSync(path.join(suite, 'tasks')).sort();
for (const name of originals) renameSync(path.join(suite, 'tasks', name), path.join(suite, 'tasks', `${name}-1`));
const ids = originals.map((name) => `${name}-1`);
for (let i = 0; ids.length < TASKS; i++) {
  const name = originals[i % originals.length];
  const id = `${name}-${Math.floor(i / originals.length) + 2}`;
  cpSync(path.join(suite, 'tasks', `${name}-1`), path.join(suite, 'tasks', id), { recursive: true });
  ids.push(id);
}
writeFileSync(path.join(suite, 'suite.yaml'), readFileSync(path.join(suite, 'suite.yaml'), 'utf8').replace(/^id: .*$/m, 'id: bench-validate-task'));

const timed = (args) => {
  const started = performance.now();
  execFileSync(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
  return (performance.now() - started) / 1000;
};

const whole = timed(['validate', suite, '--json', '--concurrency', String(CONCURRENCY)]);
const share = (whole * CONCURRENCY) / ids.length;
const one = [];
for (let k = 0; k < REPEATS; k++) {
  // the owner edits one task's prompt: its hash changes, so --task must admit it again
  const target = ids[k % ids.length];
  appendFileSync(path.join(suite, 'tasks', target, 'orders/1/prompt.md'), `\nEdit ${k}.\n`);
  one.push({ target, sec: timed(['validate', suite, '--json', '--task', target]) });
}
const median = one.map((o) => o.sec).sort((a, b) => a - b)[Math.floor(one.length / 2)];
console.log(
  `validate: whole suite (${ids.length} tasks, concurrency ${CONCURRENCY}) ${whole.toFixed(1)} s = ${share.toFixed(1)} s per task slot; ` +
    `--task (median of ${one.length}: ${one.map((o) => `${o.target} ${o.sec.toFixed(1)} s`).join(', ')}) ${median.toFixed(1)} s = ` +
    `${(median / share).toFixed(2)}x one task's share, ${(median / whole).toFixed(2)}x the whole suite`,
);
rmSync(path.dirname(suite), { recursive: true, force: true });
