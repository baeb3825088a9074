import { appendFile, cp, readFile, rm, writeFile } from 'node:fs/promises';
import { closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/suite/load-suite.js';
import { loadAverage, startBusyLoops } from '../busy-machine.js';
import { bakeoff, copySuite, ROOT, tempDir } from './helpers.js';
import { validatedTiny } from './tiny-suite.js';

interface StoredRun {
  id: string;
  task: string;
  agent_id: string;
}

/** The stored runs of a results folder, by "<task>/<agent>" (one run each with --runs 1). */
function storedRuns(results: string): Map<string, StoredRun> {
  const db = new Database(path.join(results, 'bakeoff.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT id, task, agent_id FROM runs').all() as StoredRun[];
    return new Map(rows.map((r) => [`${r.task}/${r.agent_id}`, r]));
  } finally {
    db.close();
  }
}

/** The top-level fields docs/json-output.md lists for a command (the first column of its section's table). */
async function documentedFields(heading: string): Promise<string[]> {
  const doc = await readFile(path.join(ROOT, 'docs/json-output.md'), 'utf8');
  const section = doc.split('\n## ').find((s) => s.startsWith(heading));
  if (!section) throw new Error(`docs/json-output.md has no section ${heading}`);
  return [...section.matchAll(/^\| `([A-Za-z0-9]+)` \|/gm)].map((m) => m[1]!);
}

/** Lines of verify's output that name a run. */
const runLines = (stdout: string): string[] => stdout.split('\n').filter((l) => l.startsWith('run '));

describe('bakeoff verify', () => {
  let suite: string;
  let baked: string;
  let runs: Map<string, StoredRun>;

  /** A private copy of the baked results folder to tamper with. */
  async function copyOfResults(): Promise<string> {
    const dir = path.join(await tempDir(), 'results');
    await cp(baked, dir, { recursive: true });
    return dir;
  }

  beforeAll(async () => {
    // validated once per test run (its progress lines are checked where it is validated)
    suite = await validatedTiny();
    baked = path.join(await tempDir(), 'results');
    const run = await bakeoff(['run', suite, '--agent', 'gold', '--agent', 'noop', '--runs', '1', '--concurrency', '4', '--out', baked, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr, '--json: notes only, no progress lines').not.toMatch(/^run \d/m);
    runs = storedRuns(baked);
    expect(runs.size).toBe(4);
    runJson = JSON.parse(run.stdout) as Record<string, unknown>;
  });

  let runJson: Record<string, unknown>;

  // Both directions of decision 011 on a saturated machine, in one window of busy loops: a fresh
  // bake re-checks clean (the machine never makes a mismatch), and a copy tampered with four
  // ways, one per run, is named run by run (the machine never hides a tamper). At weight one
  // process beside 8 loops a re-grade is held back from a CPU most of its time, so each
  // disagreeing re-grade is starved and tried again — alone, weighing like many processes —
  // and only that unhindered re-grade may call it a mismatch.
  let fresh: Awaited<ReturnType<typeof bakeoff>>;
  let tampered: Awaited<ReturnType<typeof bakeoff>>;
  let loadDuring: number;
  beforeAll(async () => {
    const results = await copyOfResults();
    // add/noop: its stored verdict edited in the database
    const db = new Database(path.join(results, 'bakeoff.db'));
    db.prepare("UPDATE runs SET outcome = 'solved', reason = NULL, detail = NULL WHERE agent_id = 'noop' AND task = 'add'").run();
    db.close();
    // add/gold: its stored change altered
    await writeFile(path.join(results, 'runs', runs.get('add/gold')!.id, 'order-1', 'change.patch'), '');
    // py-add/gold: an artifact file deleted, another added
    await rm(path.join(results, 'runs', runs.get('py-add/gold')!.id, 'order-1', 'prompt.md'));
    await appendFile(path.join(results, 'runs', runs.get('py-add/gold')!.id, 'order-1', 'notes.txt'), 'added later\n');
    // py-add/noop: its whole folder gone
    await rm(path.join(results, 'runs', runs.get('py-add/noop')!.id), { recursive: true });
    const loops = await startBusyLoops(8, { ownSessions: true, maxSec: 600 });
    try {
      // the fresh bake's JSON re-check names its suite folder (--suite): the recorded folder is
      // found without it in the full-disk test, whose text re-check is the fresh bake's
      [fresh, tampered] = await Promise.all([bakeoff(['verify', baked, '--suite', suite, '--json', '--concurrency', '4']), bakeoff(['verify', results, '--concurrency', '4'])]);
      loadDuring = await loadAverage();
    } finally {
      await loops.stop();
    }
  }, 900_000);

  it('prints the JSON documents docs/json-output.md describes: the same top-level fields, schemaVersion 1, the same agents in run and report', async () => {
    const report = await bakeoff(['report', baked, '--format', 'json']);
    // the document's fields, not its tasks: one task's check is enough
    const validate = await bakeoff(['validate', suite, '--check', '--task', 'add', '--json']);
    for (const [heading, result] of [['`bakeoff report --format json`', report], ['`bakeoff validate --json`', validate], ['`bakeoff verify --json`', fresh]] as const) {
      expect(result.exitCode, result.stderr).toBe(0);
      const json = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(Object.keys(json), heading).toEqual(await documentedFields(heading));
      expect(json.schemaVersion).toBe(1);
    }
    expect(Object.keys(runJson)).toEqual(await documentedFields('`bakeoff run --json`'));
    expect(runJson.schemaVersion).toBe(1);
    // an agent is the same flat object in run and report
    const reportAgents = (JSON.parse(report.stdout) as { agents: Record<string, unknown>[] }).agents;
    const runAgents = runJson.agents as Record<string, unknown>[];
    expect(runAgents.map((a) => a.id)).toEqual(['gold', 'noop']);
    expect(Object.keys(runAgents[0]!)).toEqual(Object.keys(reportAgents[0]!));
    expect(Object.keys(runAgents[0]!).slice(0, 5)).toEqual(['id', 'harness', 'version', 'model', 'effort']);
    expect(runAgents.map((a) => [a.id, a.solved, a.runs])).toEqual(reportAgents.map((a) => [a.id, a.solved, a.runs]));
  });

  it('finds nothing to report in a fresh bake on a saturated machine, re-grading every run', () => {
    console.log(`verify: 1-minute load average after the saturated re-checks: ${loadDuring.toFixed(1)}`);
    expect(fresh.exitCode, fresh.stderr).toBe(0);
    const result = JSON.parse(fresh.stdout) as {
      suite: { dir: string };
      mismatches: number;
      unverified: number;
      runs: { id: string; agent: string; stored: { kind: string }; regraded: { outcome: { kind: string } }; checksumsRecorded: boolean; error: string | null }[];
    };
    expect(result.suite.dir).toBe(suite);
    expect([result.mismatches, result.unverified]).toEqual([0, 0]);
    expect(result.runs).toHaveLength(4);
    for (const r of result.runs) {
      expect(r.error).toBeNull();
      expect(r.checksumsRecorded).toBe(true);
      expect(r.regraded.outcome.kind).toBe(r.agent === 'gold' ? 'solved' : 'failed');
    }
  });

  describe('on a results folder tampered with four ways, one per run, on a saturated machine', () => {
    const lineOf = (key: string): string | undefined => runLines(tampered.stdout).find((l) => l.startsWith(`run ${runs.get(key)!.id} `));

    it('exits 1 and names every run it found wrong, and no other', () => {
      expect(tampered.exitCode, tampered.stderr).toBe(1);
      expect(runLines(tampered.stdout)).toHaveLength(4);
      expect(tampered.stdout).toMatch(/verified 4 runs: 4 mismatches \(/);
      expect(tampered.stdout, 'a starved re-grade is tried again, unhindered, before it may decide').not.toContain('could not re-check');
    });

    it('names a run whose stored verdict was edited in the database', () => {
      const { id } = runs.get('add/noop')!;
      expect(lineOf('add/noop')).toMatch(new RegExp(`^run ${id} \\(add, noop\\): stored solved, re-graded failed \\(tests-failed: order 1: `));
      expect(tampered.stderr).toMatch(/^run \d\/4 add × noop \(replay 0\): MISMATCH in \d+:\d\d — stored solved, re-graded failed \(tests-failed/m);
    });

    it('names a run whose stored change was altered, by its checksum and by re-grading it', () => {
      const line = lineOf('add/gold');
      expect(line).toMatch(new RegExp(`^run ${runs.get('add/gold')!.id} \\(add, gold\\): `));
      expect(line).toContain('stored solved, re-graded failed (tests-failed: order 1: ');
      expect(line).toContain('order 1: stored 3/3 points, re-graded 1/3');
      expect(line).toContain('artifact order-1/change.patch changed');
    });

    it('names a run with a deleted or an added artifact file', () => {
      const { id } = runs.get('py-add/gold')!;
      expect(lineOf('py-add/gold')).toBe(`run ${id} (py-add, gold): artifact order-1/notes.txt extra; artifact order-1/prompt.md missing`);
    });

    it('names a run whose whole folder is gone, without re-grading it', () => {
      const { id } = runs.get('py-add/noop')!;
      expect(lineOf('py-add/noop')).toBe(`run ${id} (py-add, noop): artifact runs/${id}/ (the run's folder) missing`);
    });
  });

  it('refuses a damaged database in verify, report and run (exit 2), and leaves its bytes as they were', async () => {
    const results = await copyOfResults();
    const db = path.join(results, 'bakeoff.db');
    await rm(`${db}-wal`, { force: true });
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 2 * 4096);
    closeSync(fd);
    const before = await readFile(db);
    for (const args of [['verify', results], ['report', results], ['run', suite, '--agent', 'noop', '--runs', '1', '--out', results]]) {
      const r = await bakeoff(args);
      expect(r.exitCode, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`bakeoff: ${db}: the results database is damaged (SQLite: `);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    }
    expect((await readFile(db)).equals(before)).toBe(true);
  });

  it('refuses an emptied database beside run folders (exit 2) instead of re-running over them', async () => {
    const results = await copyOfResults();
    await rm(`${path.join(results, 'bakeoff.db')}-wal`, { force: true });
    await writeFile(path.join(results, 'bakeoff.db'), '');
    for (const args of [['report', results], ['verify', results], ['run', suite, '--agent', 'noop', '--runs', '1', '--out', results]]) {
      const r = await bakeoff(args);
      expect(r.exitCode, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/the results database is empty, but .*runs holds 4 run folder\(s\)/);
    }
    expect((await readFile(path.join(results, 'bakeoff.db'))).length).toBe(0);
  });

  it('refuses to bake another suite into the folder (exit 2), naming both, and records nothing', async () => {
    const results = await copyOfResults();
    const other = await copySuite(suite);
    const yaml = path.join(other, 'suite.yaml');
    await writeFile(yaml, (await readFile(yaml, 'utf8')).replace(/^id: .*$/m, 'id: tiny-copy'));
    // its lock is the validated suite's, re-pointed at the copy's id and hash (the tasks are the
    // same): admission has nothing new to find, and a whole validate is a minute of this file
    const lockFile = path.join(other, 'bakeoff.lock.json');
    const lock = JSON.parse(await readFile(lockFile, 'utf8')) as { suite: Record<string, unknown> };
    lock.suite = { ...lock.suite, id: 'tiny-copy', hash: (await loadSuite(other)).hash };
    await writeFile(lockFile, JSON.stringify(lock, null, 2) + '\n');
    const r = await bakeoff(['run', other, '--agent', 'noop', '--runs', '1', '--out', results]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/holds 4 run\(s\) of suite tiny \(hash [0-9a-f]{12}, controls [0-9a-f]{12}\); this bake is suite tiny-copy \(hash [0-9a-f]{12}/);
    expect(r.stderr).toMatch(/another suite\. .*--out \S*tiny-copy-[0-9a-f]{8}/);
    expect(storedRuns(results).size).toBe(4);
    const report = await bakeoff(['report', results]);
    expect(report.exitCode, report.stderr).toBe(0);
  });

  it('stops at a full results disk with a sentence (exit 3), keeps every finished run, and resumes once there is space', async () => {
    const mountpoint = await tempDir('bakeoff-full-disk-');
    await execa('mount', ['-t', 'tmpfs', '-o', 'size=250k', 'tmpfs', mountpoint]);
    try {
      const results = path.join(mountpoint, 'results');
      const args = ['run', suite, '--agent', 'gold', '--agent', 'noop', '--runs', '1', '--out', results];
      const full = await bakeoff(args);
      expect(full.exitCode, full.stderr).toBe(3);
      expect(full.stderr).toMatch(/^bakeoff: the disk is full( \(.*\))? \((SQLITE_FULL|ENOSPC)\): free some space, then run the same `(npx bakeoff|bakeoff|node \S+) run` again: every finished run is kept and the rest resumes$/m);
      expect(full.stderr).not.toMatch(/internal error|\n\s+at /);
      const kept = storedRuns(results).size;
      expect(kept).toBeLessThan(4);
      await execa('mount', ['-o', 'remount,size=32m', mountpoint]);
      const resumed = await bakeoff(args);
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(resumed.stdout).toContain(`(${4 - kept} run(s) this time, ${kept} already done)`);
      const verify = await bakeoff(['verify', results, '--concurrency', '4']);
      expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
      // the text re-check of a fresh bake, from the suite folder the results recorded: one progress line per run
      expect(verify.stdout).toBe('verified 4 runs: 0 mismatches (4 re-graded, 0 on points only, 0 void: checksums only)');
      const lines = verify.stderr.split('\n').filter((l) => l.startsWith('run '));
      expect(lines.map((l) => l.replace(/^run \d\/4 /, '').replace(/ in \d+:\d\d$/, '')).sort(), verify.stderr).toEqual(
        ['add × gold (replay 0): matches, solved', 'add × noop (replay 0): matches, failed (tests-failed)', 'py-add × gold (replay 0): matches, solved', 'py-add × noop (replay 0): matches, failed (tests-failed)'].sort(),
      );
      expect(lines.map((l) => l.split(' ')[1]).sort()).toEqual(['1/4', '2/4', '3/4', '4/4']);
    } finally {
      await execa('umount', ['-l', mountpoint]);
    }
  }, 400_000);

  it('refuses a suite whose hash is not the runs\' suite hash (exit 2)', async () => {
    const changed = await copySuite(suite);
    await appendFile(path.join(changed, 'tasks', 'add', 'orders', '1', 'prompt.md'), '\nOne more thing.\n');
    const verify = await bakeoff(['verify', baked, '--suite', changed]);
    expect(verify.exitCode).toBe(2);
    expect(verify.stderr).toMatch(/suite hash [0-9a-f]{64}, but the runs in .* were graded with suite hash [0-9a-f]{64}/);
    expect(verify.stdout).toBe('');
    // the same suite is accepted: the fresh bake's JSON re-check above names it with --suite
  });
});
