// What adversarial admission (validate --adversarial: the exploit library run on every task)
// adds to a task's admission, against plain validate measured in the same run on the same
// machine. The suite is the starter's four tasks (JS, TS with npm ci, Python, Rust); both
// validates run with --recheck (nothing kept from earlier ones) and one task at a time, so each
// task's time is its own. Prepared repos are made by the first validate and shared by the second.
// The figure, per task: plain seconds, adversarial seconds, the time added and the ratio.
// Measured at its first commit (2 shared cores, other work running): plain 52 s, adversarial
// 129 s for the four tasks: +19 s per task, 2.5x (csv +5 s, invoice +3 s, semver +9 s, the Rust
// task +60 s: each exploit's change is built by cargo again).
// Usage: npm run build && node bench/adversarial-admission.mjs
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/bakeoff.js');

const suite = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-adversarial-')), 'suite');
cpSync(path.join(ROOT, 'examples/starter'), suite, { recursive: true });
rmSync(path.join(suite, 'bakeoff.lock.json'), { force: true });

/** Seconds per task, read from validate's own progress lines (`task 1/4 id: admitted in 1:07`). */
const perTask = (extra) => {
  const r = spawnSync(process.execPath, [BIN, 'validate', suite, '--recheck', '--update-lock', '--concurrency', '1', ...extra], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (r.status !== 0) throw new Error(`validate ${extra.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  const times = new Map();
  for (const m of r.stderr.matchAll(/^task \d+\/\d+ (\S+): admitted in (?:(\d+):)?(\d+):(\d+)$/gm)) {
    times.set(m[1], Number(m[2] ?? 0) * 3600 + Number(m[3]) * 60 + Number(m[4]));
  }
  return times;
};

perTask([]); // prepares every task's repo once, so neither measured validate pays for setup
const plain = perTask([]);
const adversarial = perTask(['--adversarial']);
let plainSum = 0;
let advSum = 0;
for (const [task, sec] of plain) {
  const adv = adversarial.get(task);
  plainSum += sec;
  advSum += adv;
  console.log(`adversarial admission: ${task}: plain ${sec} s, adversarial ${adv} s: +${adv - sec} s, ${(adv / sec).toFixed(1)}x`);
}
console.log(`adversarial admission: ${plain.size} starter tasks: plain ${plainSum} s, adversarial ${advSum} s: +${((advSum - plainSum) / plain.size).toFixed(0)} s per task, ${(advSum / plainSum).toFixed(1)}x`);
rmSync(path.dirname(suite), { recursive: true, force: true });
