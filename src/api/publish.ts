import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors.js';
import { comparePaired, renderSite, SITE_MARKER, type PrivateOrderDetail } from '../report/index.js';
import { openStore } from '../store/index.js';
import type { RunRecord } from '../types.js';
import type { VerifyResult } from '../verify/index.js';
import { notifyVia } from './events.js';
import { cwdOf } from './paths.js';
import { leaderboard } from './report.js';
import { reverify, withResultsLocked, type VerifyRequest } from './verify.js';

export interface PublishRequest extends VerifyRequest {
  /** The site's folder: new, empty, or a site an earlier publish wrote. */
  readonly out: string;
  /** Add each run's change, agent output and test output to its page. */
  readonly private?: boolean;
}

export type PublishOutcome =
  | { readonly published: true; readonly verified: VerifyResult; readonly out: string; readonly pages: number }
  /** Nothing was written: some stored results do not re-check (`mismatches`) or could not be re-checked (`unverified`). */
  | { readonly published: false; readonly verified: VerifyResult; readonly why: 'mismatches' | 'unverified' };

/**
 * `bakeoff publish`: verifies the results folder first (the same re-check as `verify()`),
 * refusing on any mismatch or run that could not be re-checked, writing nothing; then writes
 * the static site. The folder's lock is held throughout, so no bake changes it in between.
 */
export function publish(request: PublishRequest): Promise<PublishOutcome> {
  const notify = notifyVia(request.onEvent);
  return withResultsLocked(request, 'publish', notify, async () => {
    const verified = await reverify(request, notify);
    if (verified.mismatches > 0 || verified.unverified > 0) return { published: false, verified, why: verified.mismatches > 0 ? 'mismatches' : 'unverified' };
    const cwd = cwdOf(request);
    const files = await renderPages(path.resolve(cwd, request.results), request);
    const out = path.resolve(cwd, request.out);
    await clearOldSite(out, request.out);
    for (const [file, html] of files) {
      await mkdir(path.dirname(path.join(out, file)), { recursive: true });
      await writeFile(path.join(out, file), html);
    }
    return { published: true, verified, out, pages: files.size };
  });
}

async function renderPages(dir: string, request: PublishRequest): Promise<Map<string, string>> {
  const store = openStore(dir, { create: false });
  try {
    const runs = store.listRuns();
    const view = leaderboard(store, runs);
    if (view.mixed.length > 0) {
      const what = view.mixed.map((m) => `${m.field} (${m.values.join(' vs ')})`).join('; ');
      throw new UserError(`${request.results}: refusing to publish runs that differ in ${what}`);
    }
    const controlsList = [...store.controls().values()];
    const controls = controlsList.length === 1 ? controlsList[0] : controlsList;
    const [first, second] = view.agents;
    const comparison = first && second ? comparePaired(runs, { a: first.agent.id, b: second.agent.id, controls }) : null;
    const privateDetail = request.private ? await readPrivateDetail(store.runsDir, runs) : undefined;
    return renderSite({ view, runs, comparison, generatedAt: new Date().toISOString(), ...(privateDetail ? { privateDetail } : {}) });
  } finally {
    store.close();
  }
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
