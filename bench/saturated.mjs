// The machine never decides a verdict (decision 011): the same bakes quiet and with the machine
// saturated — SAT_LOOPS (48) busy loops, each in a session of its own at the top of the CPU
// hierarchy, plus --concurrency 4 — must give identical verdicts, points and per-test results;
// verify must find 0 mismatches, `validate --check --recheck` (admitted again, not from the verdict cache)
// no difference and doctor every installed CLI.
// Too slow for CI's budget, so it is a script (`npm run test:saturated`) whose figures go in the
// record. It prints the load average reached and the cost of the re-run rule (test runs re-run,
// median time they added), quiet and saturated.
//
//   the starter suite, one run per task: gold, noop and the five CLIs on bakeoff's scripted model;
//   test/fixtures/suites/machine-load (10 s session clock): gold, noop, a hanging `command:` agent
//     (its session sleeps), and changes whose tests spin eight threads or block (the starter's 600 s
//     session clock would make every saturated burst a hang's 10 minutes)
//
// The machine is shared: saturation runs in bursts of at most SAT_BURST_SEC (600) with SAT_REST_SEC
// (120) of rest between; a bake cut by its burst's end is stopped cleanly (SIGINT) and resumed in
// the next. Every loop runs under `timeout -s KILL`, so none outlives the script.
//
// Usage: npm run build && node bench/saturated.mjs [work folder]
//   SAT_TASKS (starter task ids, comma-separated; default all), SAT_SKIP (phases to skip:
//   quiet,saturated,verify,validate,doctor), SAT_LOOPS, SAT_BURST_SEC, SAT_REST_SEC.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/bakeoff.js');
const LOOPS = Number(process.env.SAT_LOOPS ?? 48);
const BURST_SEC = Number(process.env.SAT_BURST_SEC ?? 600);
const REST_SEC = Number(process.env.SAT_REST_SEC ?? 120);
const SKIP = new Set((process.env.SAT_SKIP ?? '').split(',').filter(Boolean));
const WORK = path.resolve(process.argv[2] ?? path.join(os.tmpdir(), `bakeoff-saturated-${process.pid}`));
const CLIS = ['claude-code:claude-sonnet-4-5', 'codex:gpt-5.5@lowest', 'pi:anthropic/claude-sonnet-4-5', 'opencode:anthropic/claude-sonnet-4-5', 'gemini-cli:gemini-2.5-pro'];
const FIX = path.join(ROOT, 'test/fixtures/machine-load');
const SUITES = {
  starter: { dir: path.join(ROOT, 'examples/starter'), agents: ['gold', 'noop', ...CLIS], extra: ['--upstream', 'scripted:gold'] },
  'machine-load': {
    dir: path.join(ROOT, 'test/fixtures/suites/machine-load'),
    agents: ['gold', 'noop', 'command:sleep 3600', `command:node ${FIX}/spin-change.mjs`, `command:node ${FIX}/sleep-change.mjs`],
    extra: [],
  },
};
const log = (line) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const loads = [];

/** The built CLI, with its exit code and output; `limitSec`: stopped cleanly (SIGINT) when it runs longer. */
function bakeoff(args, limitSec = Infinity) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let cut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = Number.isFinite(limitSec) ? setTimeout(() => ((cut = true), child.kill('SIGINT')), limitSec * 1000) : null;
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ code, stdout, stderr, cut });
    });
  });
}

/** Runs `work(secondsLeft)` with the machine saturated, at most one burst; the loops always go. */
async function burst(label, work) {
  const top = ['/sys/fs/cgroup/cpu/cgroup.procs', '/sys/fs/cgroup/cgroup.procs'].find((f) => existsSync(f));
  const loops = Array.from({ length: LOOPS }, () =>
    spawn('timeout', ['-s', 'KILL', String(BURST_SEC + 120), '/bin/sh', '-c', `${top ? `echo $$ > ${top} 2>/dev/null; ` : ''}exec ${process.execPath} -e 'for(;;){}'`], { stdio: 'ignore', detached: true }),
  );
  const sampler = setInterval(async () => loads.push(Number((await readFile('/proc/loadavg', 'utf8')).split(' ')[0])), 10_000);
  const started = Date.now();
  log(`burst: ${label} (${LOOPS} busy loops)`);
  try {
    return await work(BURST_SEC);
  } finally {
    clearInterval(sampler);
    for (const l of loops) {
      try {
        process.kill(-l.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    log(`burst over after ${Math.round((Date.now() - started) / 1000)} s; resting ${REST_SEC} s`);
    await new Promise((r) => setTimeout(r, REST_SEC * 1000));
  }
}

/** A copy of a suite whose lock admits only `tasks` (same suite hash, so one results folder holds them all). */
async function suiteCopy(name, tasks) {
  const dir = path.join(WORK, 'suites', `${name}-${tasks.join('+')}`);
  if (!existsSync(dir)) {
    await cp(SUITES[name].dir, dir, { recursive: true });
    const lockFile = path.join(dir, 'bakeoff.lock.json');
    const lock = JSON.parse(await readFile(lockFile, 'utf8'));
    lock.tasks = Object.fromEntries(Object.entries(lock.tasks).filter(([id]) => tasks.includes(id)));
    await writeFile(lockFile, JSON.stringify(lock, null, 2) + '\n');
  }
  return dir;
}

const bakeArgs = (name, suite, out) => ['run', suite, ...SUITES[name].agents.flatMap((a) => ['--agent', a]), ...SUITES[name].extra, '--runs', '1', '--concurrency', '4', '--out', out, '--json'];

/** Every run of a results folder: verdict, points, per-test statuses and steps, by run id. */
async function verdictsOf(out) {
  const r = await bakeoff(['report', out, '--format', 'json']);
  const runs = JSON.parse(r.stdout).runs;
  const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
  const checks = db.prepare('SELECT run_id, ord, check_id, status FROM checks ORDER BY run_id, ord, check_id').all();
  db.close();
  return new Map(
    runs.map((run) => [
      run.id,
      { task: run.task, agent: run.agent, verdict: [run.outcome, run.failReason ?? run.voidReason, run.points, run.maxPoints, JSON.stringify(run.orders)], tests: checks.filter((c) => c.run_id === run.id).map((c) => `${c.ord}:${c.check_id}=${c.status}`), steps: run.steps },
    ]),
  );
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** How often the re-run rule fired and what it cost: test runs re-run, and the median wall time of the runs they replaced. */
function rerunCost(verdicts) {
  const tests = [...verdicts.values()].flatMap((v) => v.steps.filter((s) => s.step === 'tests'));
  // a starved timeout is what the rule re-runs: the time it added is that first run's (the re-run stands for the one run there would have been)
  const replaced = tests.filter((s) => s.attempt === 1 && s.timedOut && s.starved);
  const reruns = tests.filter((s) => s.attempt === 2);
  const starvedSessions = [...verdicts.values()].flatMap((v) => v.steps.filter((s) => s.step === 'session' && s.starved && s.timedOut)).length;
  return { testRuns: tests.length, reruns: reruns.length, medianAddedSec: median(replaced.map((s) => s.wallMs / 1000)), starvedSessions };
}

await mkdir(WORK, { recursive: true });
log(`work folder ${WORK}`);
const starterTasks = (process.env.SAT_TASKS ?? 'csv-multiline-fields,invoice-half-cent-rounding,semver-caret-tilde,wrap-non-ascii').split(',');
const slices = [...starterTasks.map((t) => ['starter', [t]]), ['machine-load', ['add']]];
const result = { quiet: {}, saturated: {}, verify: {}, validate: {}, doctor: null };

if (!SKIP.has('doctor')) {
  const quietDoctor = await bakeoff(['doctor', '--json']);
  result.doctorQuiet = JSON.parse(quietDoctor.stdout).agents.map((a) => `${a.name}:${a.ok ? 'ok' : a.detail}`);
}
for (const [name, tasks] of slices) {
  const suite = await suiteCopy(name, tasks);
  const key = `${name}/${tasks.join('+')}`;
  if (!SKIP.has('quiet')) {
    const out = path.join(WORK, 'quiet', key);
    log(`quiet bake ${key}`);
    // a bake resumes: run again, it only adds what a cut run left out
    const r = await bakeoff(bakeArgs(name, suite, out));
    if (r.code !== 0) log(`quiet bake ${key} exited ${r.code}: ${r.stderr.slice(-500)}`);
    result.quiet[key] = await verdictsOf(out);
  }
  if (!SKIP.has('saturated')) {
    const out = path.join(WORK, 'saturated', key);
    for (let n = 1; ; n++) {
      const r = await burst(`bake ${key} (${n})`, (sec) => bakeoff(bakeArgs(name, suite, out), sec));
      if (!r.cut) {
        if (r.code !== 0) log(`saturated bake ${key} exited ${r.code}: ${r.stderr.slice(-500)}`);
        break;
      }
      log(`saturated bake ${key} cut by its burst: resumed in the next`);
    }
    result.saturated[key] = await verdictsOf(out);
    if (!SKIP.has('verify')) {
      const v = await burst(`verify ${key}`, (sec) => bakeoff(['verify', out, '--json'], sec));
      const parsed = v.cut ? null : JSON.parse(v.stdout);
      result.verify[key] = v.cut ? 'did not finish within its burst' : { exit: v.code, mismatches: parsed.mismatches, couldNotRecheck: parsed.unverified, runs: parsed.runs.length };
    }
  }
  if (!SKIP.has('validate')) {
    for (const task of tasks) {
      const v = await burst(`validate --check ${name} ${task}`, (sec) => bakeoff(['validate', SUITES[name].dir, '--task', task, '--check', '--recheck', '--json'], sec));
      result.validate[`${name}/${task}`] = v.cut ? 'did not finish within its burst' : { exit: v.code, lock: JSON.parse(v.stdout).lockComparison?.status };
    }
  }
}
if (!SKIP.has('doctor')) {
  const d = await burst('doctor', (sec) => bakeoff(['doctor', '--json'], sec));
  result.doctor = d.cut ? 'did not finish within its burst' : JSON.parse(d.stdout).agents.map((a) => `${a.name}:${a.ok ? 'ok' : a.detail}`);
}

// the comparison
let differences = 0;
const rows = [];
for (const key of Object.keys(result.saturated)) {
  const quiet = result.quiet[key] ?? new Map();
  for (const [id, sat] of result.saturated[key]) {
    const q = quiet.get(id);
    const same = q !== undefined && JSON.stringify(q.verdict) === JSON.stringify(sat.verdict) && JSON.stringify(q.tests) === JSON.stringify(sat.tests);
    if (!same) differences++;
    rows.push(`${same ? '  same' : 'DIFFER'}  ${sat.task.padEnd(28)} ${sat.agent.slice(0, 44).padEnd(44)} quiet ${q ? q.verdict.slice(0, 4).join(' ') : '(none)'} | saturated ${sat.verdict.slice(0, 4).join(' ')}`);
  }
}
const all = (which) => new Map(Object.values(result[which]).flatMap((m) => [...m]));
console.log(`\nsaturated check, ${LOOPS} busy loops + --concurrency 4 on ${os.availableParallelism()} CPUs; load average over the bursts: max ${Math.max(...loads, 0).toFixed(1)}, median ${median(loads)?.toFixed(1)}`);
console.log(rows.join('\n'));
console.log(`verdicts, points and per-test results differing quiet vs saturated: ${differences}`);
console.log('verify (saturated):', JSON.stringify(result.verify));
console.log('validate --check (saturated):', JSON.stringify(result.validate));
console.log('doctor quiet:', JSON.stringify(result.doctorQuiet), '\ndoctor saturated:', JSON.stringify(result.doctor));
console.log('re-run rule, quiet:', JSON.stringify(rerunCost(all('quiet'))));
console.log('re-run rule, saturated:', JSON.stringify(rerunCost(all('saturated'))));
await writeFile(path.join(WORK, 'summary.json'), JSON.stringify({ loads, rows, differences, verify: result.verify, validate: result.validate, doctor: result.doctor }, null, 2));
