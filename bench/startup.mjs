// Start-up: whole-process time of `bakeoff --version`, `report` (16 stored runs), `agents --json`
// (probe cache warm) and of loading each command's module, each against `node -e 0` measured in
// the same rounds (interleaved, so load on the shared machine hits both sides alike). Prints
// medians of wall and CPU time (user + system, the process's own, read at exit) and the ratios.
// Goal (issue 36): every command ≤ 2.5× `node -e 0`, `agents` ≤ 3×.
// Usage: npm run build && node bench/startup.mjs [rounds=15]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { syntheticResults } from './synthetic-results.mjs';
import { median } from './median.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/bakeoff.js');
const ROUNDS = Number(process.argv[2] ?? 15);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-startup-'));
const cpuFile = path.join(scratch, 'cpu');
// every measured process (node -e 0 too) loads this one hook: it writes its own CPU time at exit
const HOOK = `data:text/javascript,${encodeURIComponent(`import { writeFileSync } from 'node:fs'; process.on('exit', () => { const u = process.cpuUsage(); writeFileSync(${JSON.stringify(cpuFile)}, String((u.user + u.system) / 1000)); });`)}`;
const results = path.join(scratch, 'results');
syntheticResults(results, { runs: 16, agents: 4, tasks: 4 });
const env = { ...process.env, BAKEOFF_CACHE_DIR: process.env.BAKEOFF_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'bakeoff') };

const cases = [
  ['node -e 0', ['-e', '0']],
  ['bakeoff --version', [BIN, '--version']],
  ['bakeoff report (16 runs)', [BIN, 'report', results]],
  ['bakeoff report --format json', [BIN, 'report', results, '--format', 'json']],
  ['bakeoff agents --json', [BIN, 'agents', '--json']],
  ...['run', 'validate', 'verify', 'publish', 'doctor', 'task', 'import', 'export', 'fleet', 'auth'].map((c) => [`load command ${c}`, ['--input-type=module', '-e', `await import(${JSON.stringify(path.join(ROOT, 'dist/cli/commands', `${c}.js`))})`]]),
];

// once, unmeasured: fills the probe cache (`agents`) and the page cache
for (const [, args] of cases) spawnSync(process.execPath, args, { env, stdio: 'ignore' });
const wall = new Map(cases.map(([label]) => [label, []]));
const cpu = new Map(cases.map(([label]) => [label, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, args] of cases) {
    const started = performance.now();
    const child = spawnSync(process.execPath, ['--import', HOOK, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    wall.get(label).push(performance.now() - started);
    if (child.status !== 0) throw new Error(`${label}: exit ${child.status}: ${child.stderr}`);
    cpu.get(label).push(Number(readFileSync(cpuFile, 'utf8')));
  }
}
const base = { wall: median(wall.get('node -e 0')), cpu: median(cpu.get('node -e 0')) };
console.log(`start-up, medians of ${ROUNDS} interleaved rounds; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
console.log(`${'command'.padEnd(32)}${'wall ms'.padStart(10)}${'× node'.padStart(9)}${'cpu ms'.padStart(10)}${'× node'.padStart(9)}`);
for (const [label] of cases) {
  const w = median(wall.get(label));
  const c = median(cpu.get(label));
  console.log(`${label.padEnd(32)}${w.toFixed(0).padStart(10)}${(w / base.wall).toFixed(2).padStart(8)}×${c.toFixed(0).padStart(10)}${(c / base.cpu).toFixed(2).padStart(8)}×`);
}
rmSync(scratch, { recursive: true, force: true });
