import { appendFile, copyFile, cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { CARGO_NOT_INCREMENTAL, escapeControl, sha256, exists, IGNORED_NAMES, pidExists, holdQuiet, waitForRoom } from '../util/index.js';
import { rerunStretch } from './cpu-figures.js';
import path from 'node:path';
import { git, initSingleCommit } from './git.js';
import type { ExecResult, Sandbox } from './types.js';
import { chownTree, type Owner } from './workspace.js';

/*
 * A prepared repo is the task's repo/ after its setup command, made once per machine and
 * reused by every run and grading of the task:
 *
 *   <cacheDir>/prepared/<key>/        key: the repo's tree and setup command (not the task: tasks of
 *                                     one tree share it), node, arch, the sandbox uid, the setup's
 *                                     cargo settings
 *     repo/            the codebase + setup outputs, with a .git of exactly one commit
 *     setup.log        the setup command's output
 *     prepared.json    written last: its presence means the folder is complete
 *
 * Everything setup created (node_modules/, target/, …) is listed in repo/.git/info/exclude,
 * so it is never part of an agent's change.
 */

export interface PrepareOptions {
  readonly taskId: string;
  /** Hash of what the repo is made from: its files and the setup command (a task's `repoHash`). */
  readonly taskHash: string;
  readonly repoDir: string;
  readonly setup: string | null;
  readonly cacheDir: string;
  readonly sandbox: Sandbox;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Kill the setup when it prints nothing for this long (controls.setupIdleSec). */
  readonly idleTimeoutMs?: number;
  /** Called about once a second while the setup runs: its elapsed time and last line of output. */
  readonly onProgress?: (progress: SetupProgress) => void;
  /** The sandbox uid that must be able to write through workspaces made from it. */
  readonly owner: Owner | null;
}

/** How a running setup is doing. */
export interface SetupProgress {
  readonly command: string;
  readonly elapsedSec: number;
  /** The last non-empty line it printed (control characters escaped), or '' before any. */
  readonly lastLine: string;
}

export type PrepareResult =
  | { readonly ok: true; readonly repo: string; readonly setupSec: number; readonly cached: boolean }
  | { readonly ok: false; readonly reason: string; readonly logPath: string };

/**
 * Preparations under way in this process, by their folder: tasks of one repo and setup (one
 * key) asked for at once — SWE-bench instances at one commit — share the first one's work
 * instead of each preparing it into a temp folder of the same name.
 */
const underWay = new Map<string, Promise<PrepareResult>>();
/** Preparations this process started: part of each temp folder's name. */
let preparationsStarted = 0;

export async function prepareRepo(options: PrepareOptions): Promise<PrepareResult> {
  // `cargo-not-incremental`: prepared repos set up before setups built without incremental compilation are not reused
  const key = sha256(`${options.taskHash}\n${process.version}\n${process.arch}\n${options.owner?.uid ?? 'caller'}\ncargo-not-incremental`).slice(0, 20);
  const finalDir = path.join(options.cacheDir, 'prepared', key);
  // looked up and registered with no await between: two callers never both start it
  const running = underWay.get(finalDir);
  if (running) {
    const result = await running;
    return result.ok ? { ...result, cached: true } : result;
  }
  const work = prepareOnce(options, finalDir);
  underWay.set(finalDir, work);
  try {
    return await work;
  } finally {
    underWay.delete(finalDir);
  }
}

async function prepareOnce(options: PrepareOptions, finalDir: string): Promise<PrepareResult> {
  const marker = path.join(finalDir, 'prepared.json');
  if (await exists(marker)) {
    const { setupSec } = JSON.parse(await readFile(marker, 'utf8')) as { setupSec: number };
    return { ok: true, repo: path.join(finalDir, 'repo'), setupSec, cached: true };
  }
  await removeStaleTemps(finalDir);
  const tmpDir = `${finalDir}.tmp-${process.pid}-${Date.now()}-${++preparationsStarted}`;
  const repo = path.join(tmpDir, 'repo');
  await mkdir(tmpDir, { recursive: true });
  try {
    return await prepareInto(options, { finalDir, tmpDir, repo });
  } finally {
    // a failed or interrupted setup leaves nothing half-made behind (its log is kept apart)
    await rm(tmpDir, { recursive: true, force: true });
  }
}

async function prepareInto(options: PrepareOptions, dirs: { finalDir: string; tmpDir: string; repo: string }): Promise<PrepareResult> {
  const { finalDir, tmpDir, repo } = dirs;
  const logPath = path.join(tmpDir, 'setup.log');
  let setupSec = 0;
  let result = await runSetup(options, repo, logPath, 1);
  let rerun = false;
  // a setup stopped by its clock while the machine starved it runs again from a fresh copy, alone, with longer clocks (decision 011)
  if (result && (result.timedOut || result.idleTimedOut) && result.cpu?.starved) {
    const stretch = rerunStretch(result.cpu);
    const release = holdQuiet();
    try {
      await waitForRoom({ maxWaitMs: options.timeoutMs });
      await rm(repo, { recursive: true, force: true });
      result = await runSetup(options, repo, logPath, stretch);
      rerun = true;
    } finally {
      release();
    }
  }
  if (options.setup && result) {
    setupSec = result.durationMs / 1000;
    if (result.timedOut || result.idleTimedOut || result.exitCode !== 0) {
      const again = rerun && (result.timedOut || result.idleTimedOut) ? ', and again when re-run alone with longer clocks after the machine starved it' : '';
      const why = result.idleTimedOut
        ? `printed nothing for ${(options.idleTimeoutMs ?? 0) / 1000} s (controls.setupIdleSec) and was stopped${again}`
        : result.timedOut
          ? `timed out after ${options.timeoutMs / 1000} s (controls.setupWallClockSec)${again}`
          : `exited with ${result.exitCode ?? result.signal}`;
      const kept = `${finalDir}.setup-failed.log`;
      await copyFile(logPath, kept);
      return { ok: false, reason: `setup command ${why}: ${escapeControl(lastLine(result.outputTail))} (log: ${kept})`, logPath: kept };
    }
  }
  await excludeSetupOutputs(repo);
  if (options.owner) await chownTree([repo], options.owner);
  await writeFile(path.join(tmpDir, 'prepared.json'), JSON.stringify({ schemaVersion: 1, setupSec }) + '\n');
  try {
    await rename(tmpDir, finalDir);
  } catch {
    // another process prepared the same task first; use theirs
    await rm(tmpDir, { recursive: true, force: true });
  }
  return { ok: true, repo: path.join(finalDir, 'repo'), setupSec, cached: false };
}

/** The repo copied afresh, then the setup command run in it with its clocks times `stretch`; null without a setup command. */
async function runSetup(options: PrepareOptions, repo: string, logPath: string, stretch: number): Promise<ExecResult | null> {
  await cp(options.repoDir, repo, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => !IGNORED_NAMES.has(path.basename(src)),
  });
  // one message for every task: the repo may be shared by tasks of the same tree
  await initSingleCommit(repo, 'prepared repo');
  if (stretch === 1) await writeFile(logPath, '');
  else await appendFile(logPath, `\n[bakeoff: the machine starved the setup above until its clock stopped it; run again from a fresh copy with clocks ${stretch.toFixed(1)} times as long]\n`);
  if (!options.setup) return null;
  const watch = watchSetup(options.setup, options.onProgress);
  return options.sandbox
    .exec({
      command: options.setup,
      cwd: repo,
      // built as every grading builds (util/cargo-env.ts)
      env: { ...options.env, ...CARGO_NOT_INCREMENTAL },
      timeoutMs: Math.round(options.timeoutMs * stretch),
      network: 'host',
      outputPath: logPath,
      binds: [],
      ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: Math.round(options.idleTimeoutMs * stretch) } : {}),
      onOutput: watch.onOutput,
    })
    .finally(watch.stop);
}

/** Lists what setup created in info/exclude, and folds tracked files setup changed into the commit. */
async function excludeSetupOutputs(repo: string): Promise<void> {
  const status = await git(['status', '--porcelain=v1', '-z', '--untracked-files=normal', '--ignored=traditional'], { cwd: repo });
  const created: string[] = [];
  let changedTracked = false;
  for (const record of status.split('\0')) {
    if (record.length < 4) continue;
    const code = record.slice(0, 2);
    const file = record.slice(3);
    if (code === '??' || code === '!!') created.push(file);
    else changedTracked = true;
  }
  if (created.length > 0) {
    const lines = created.map((p) => '/' + p.replace(/([*?[\\!#])/g, '\\$1'));
    await appendFile(path.join(repo, '.git', 'info', 'exclude'), lines.join('\n') + '\n');
  }
  if (changedTracked) {
    await git(['add', '-u'], { cwd: repo });
    await git(['commit', '-q', '--amend', '--no-verify', '--no-edit'], { cwd: repo });
  }
}

/** Progress of a running setup: the last line it printed, reported about once a second. */
function watchSetup(command: string, onProgress: PrepareOptions['onProgress']): { onOutput: (chunk: Buffer) => void; stop: () => void } {
  const started = performance.now();
  let last = '';
  const report = (): void => onProgress?.({ command, elapsedSec: (performance.now() - started) / 1000, lastLine: escapeControl(last).slice(0, 200) });
  const ticker = onProgress ? setInterval(report, 1000) : undefined;
  ticker?.unref();
  return {
    onOutput: (chunk) => {
      const line = lastLine(chunk.toString('utf8'));
      if (line !== '') last = line;
    },
    stop: () => clearInterval(ticker),
  };
}

/** Removes temp folders of this task left by bakeoff processes that are gone (a kill -9 mid-setup). */
async function removeStaleTemps(finalDir: string): Promise<void> {
  const parent = path.dirname(finalDir);
  const prefix = `${path.basename(finalDir)}.tmp-`;
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !pidExists(pid)) await rm(path.join(parent, name), { recursive: true, force: true });
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.slice(0, 300) ?? '';
}
