import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../errors.js';
import { comparePaired, summarize } from '../../report/index.js';
import { renderSite, SITE_MARKER, type PrivateOrderDetail } from '../../report/index.js';
import { verifyResults } from '../../verify/index.js';
import { requireTools } from '../../sandbox/index.js';
import { openStore } from '../../store/index.js';
import type { RunRecord } from '../../types.js';
import { isolationFor } from '../isolation-for.js';
import { lockResultsFor } from '../lock-results-for.js';
import { createNotes, type Notes } from '../notes.js';
import { cacheDir, EXIT, type CliIo } from '../io.js';
import { renderVerify } from './verify.js';

export interface PublishFlags {
  readonly out: string;
  /** Add each run's change, agent output and test output to its page. */
  readonly private: boolean;
  readonly suite?: string;
  readonly concurrency: number;
  /** Wait for another process using the results folder to finish, instead of refusing. */
  readonly wait: boolean;
  readonly unsafeNoSandbox: boolean;
}

/**
 * `bakeoff publish <results> --out DIR [--private]`: verify the results folder first (the same
 * re-check as `bakeoff verify`) and refuse on any mismatch (exit 1, naming the runs) or any run
 * that could not be re-checked (exit 3), writing nothing; then write the static site to DIR.
 */
export async function publishCommand(results: string, flags: PublishFlags, io: CliIo): Promise<number> {
  const dir = path.resolve(io.cwd, results);
  await requireTools(flags.unsafeNoSandbox ? ['git'] : ['bwrap', 'git']);
  const notes = createNotes(io.stderr);
  // held while the folder is verified and read: no bake may change it in between
  const resultsLock = await lockResultsFor(dir, { command: 'publish', create: false, wait: flags.wait, notes });
  try {
    return await publishLocked(dir, results, flags, io, notes);
  } finally {
    resultsLock.release();
  }
}

async function publishLocked(dir: string, results: string, flags: PublishFlags, io: CliIo, notes: Notes): Promise<number> {
  const verified = await verifyResults(dir, {
    ...(flags.suite ? { suiteDir: path.resolve(io.cwd, flags.suite) } : {}),
    isolationFor: (controls) => isolationFor(controls, flags.unsafeNoSandbox, notes),
    cacheDir: cacheDir(io),
    concurrency: flags.concurrency,
  });
  if (verified.mismatches > 0 || verified.unverified > 0) {
    io.stderr.write(renderVerify(verified));
    io.stderr.write(`bakeoff: refusing to publish ${results}: the stored results do not re-check; nothing was written\n`);
    return verified.mismatches > 0 ? EXIT.checksFailed : EXIT.infra;
  }
  const store = openStore(dir, { create: false });
  let files: Map<string, string>;
  try {
    const runs = store.listRuns();
    const controlsList = [...store.controls().values()];
    const controls = controlsList.length === 1 ? controlsList[0] : controlsList;
    const standard = (controlsList[0] as { runsPerTask?: number } | undefined)?.runsPerTask ?? 2;
    const planned = runs[0] ? store.bakes().find((b) => b.suiteHash === runs[0]!.suiteHash)?.tasks ?? undefined : undefined;
    const view = summarize(runs, { standardRunsPerTask: standard, controls, ...(planned ? { tasks: planned } : {}) });
    if (view.mixed.length > 0) {
      const what = view.mixed.map((m) => `${m.field} (${m.values.join(' vs ')})`).join('; ');
      throw new UserError(`${results}: refusing to publish runs that differ in ${what}`);
    }
    const [first, second] = view.agents;
    const comparison = first && second ? comparePaired(runs, { a: first.agent.id, b: second.agent.id, controls }) : null;
    const privateDetail = flags.private ? await readPrivateDetail(store.runsDir, runs) : undefined;
    files = renderSite({ view, runs, comparison, generatedAt: new Date().toISOString(), ...(privateDetail ? { privateDetail } : {}) });
  } finally {
    store.close();
  }
  const out = path.resolve(io.cwd, flags.out);
  await clearOldSite(out, flags.out);
  for (const [file, html] of files) {
    await mkdir(path.dirname(path.join(out, file)), { recursive: true });
    await writeFile(path.join(out, file), html);
  }
  io.stderr.write(`verified ${verified.runs.length} runs: 0 mismatches\n`);
  io.stdout.write(`wrote ${files.size} pages to ${flags.out}${flags.private ? ' (PRIVATE: contains changes, agent output and test output)' : ''}\n`);
  return EXIT.ok;
}

/**
 * Pages of an earlier publish to the same folder would linger (a run or agent since removed),
 * so an earlier site's `agents/` and `runs/` go; any other non-empty folder is refused, never
 * cleared (it could be the results folder itself, whose `runs/` holds the artifacts).
 */
async function clearOldSite(out: string, shown: string): Promise<void> {
  const entries = await readdir(out).catch(() => [] as string[]);
  if (entries.length === 0) return;
  const index = await readText(path.join(out, 'index.html'));
  if (index === null || !index.includes(SITE_MARKER) || entries.includes('bakeoff.db')) {
    throw new UserError(`--out ${shown}: not empty and not a site bakeoff publish wrote; choose an empty or new folder`);
  }
  await rm(path.join(out, 'agents'), { recursive: true, force: true });
  await rm(path.join(out, 'runs'), { recursive: true, force: true });
}

/*
 * Read from each run's artifacts (see run-task.ts):
 *   runs/<run-id>/order-<n>/change.patch, agent.log, grade/test-output.log (or grade/checks.json)
 */
async function readPrivateDetail(runsDir: string, runs: readonly RunRecord[]): Promise<Map<string, PrivateOrderDetail[]>> {
  const detail = new Map<string, PrivateOrderDetail[]>();
  for (const run of runs) {
    const orders: PrivateOrderDetail[] = [];
    for (const { order } of run.orders) {
      const base = path.join(runsDir, run.id, `order-${order}`);
      orders.push({
        order,
        patch: await readText(path.join(base, 'change.patch')),
        agentLog: await readText(path.join(base, 'agent.log')),
        testOutput: (await readText(path.join(base, 'grade', 'test-output.log'))) ?? (await readText(path.join(base, 'grade', 'checks.json'))),
      });
    }
    detail.set(run.id, orders);
  }
  return detail;
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}
