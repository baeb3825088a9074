import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { transcriptOf } from '../agents/index.js';
import { catalogInfo, describeToolPolicy, listPrice } from '../meter/index.js';
import { UserError } from '../errors.js';
import { comparePaired, renderSite, SITE_MARKER, type CostByClass, type PrivateOrderDetail, type SiteSession, type SiteSuite, type SiteTask } from '../report/index.js';
import { loadSuite, readLock, type Suite } from '../suite/index.js';
import { DATABASE_NAME, gradeFiles, openStore, orderFile, orderFilesInResults, runOrderDir, type SessionRow, type Store } from '../store/index.js';
import type { RunRecord } from '../types.js';
import type { VerifyResult } from '../verify/index.js';
import { notifyVia } from './events.js';
import { cwdOf } from './paths.js';
import { draftPrompts } from './validate.js';
import { readFailureEvidence } from './failure-evidence.js';
import { leaderboard } from './report.js';
import { reverify, withResultsLocked, type RecheckRequest } from './verify.js';

export interface PublishRequest extends RecheckRequest {
  /** The site's folder: new, empty, or a site an earlier publish wrote. */
  readonly out: string;
  /** Add to each run's page its prompts, sessions (transcripts), changes, test results, logs and model requests. */
  readonly private?: boolean;
  /** Publish although some prompts are still drafts bakeoff wrote (refused by default). */
  readonly allowDraftPrompts?: boolean;
  /**
   * Re-grade every run even when an earlier clean re-check of the same, unchanged folder stands
   * (by default that one is used: same bakeoff, runs, artifacts, suite and lock).
   */
  readonly reverify?: boolean;
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
    const drafts = request.allowDraftPrompts !== true;
    // drafts are refused before the re-check, which takes minutes
    const early = await bakedSuite(request);
    if (drafts && early !== null) refuseDraftsOf(early);
    const verified = await reverify(request, notify, undefined, request.reverify !== true);
    if (verified.reusedFrom !== undefined) {
      notify.note(`using the re-check of ${verified.reusedFrom} (${verified.runs.length} runs, 0 mismatches): nothing it checked has changed since (--reverify re-grades anyway)`);
    }
    if (verified.mismatches > 0 || verified.unverified > 0) return { published: false, verified, why: verified.mismatches > 0 ? 'mismatches' : 'unverified' };
    const cwd = cwdOf(request);
    const graded = early !== null && early.dir === verified.suite.dir && early.hash === verified.suite.hash ? early : await loadSuite(verified.suite.dir);
    if (drafts && graded !== early) refuseDraftsOf(graded);
    const suite = await siteSuiteOf(graded);
    const files = await renderPages(path.resolve(cwd, request.results), request, suite);
    const out = path.resolve(cwd, request.out);
    await clearOldSite(out, request.out);
    for (const [file, html] of files) {
      await mkdir(path.dirname(path.join(out, file)), { recursive: true });
      await writeFile(path.join(out, file), html);
    }
    return { published: true, verified, out, pages: files.size };
  });
}

/** The suite the re-check graded with (same folder, same hash), as the site may know it: its admitted tasks. */
export async function siteSuiteOf(suite: Suite): Promise<SiteSuite> {
  const lock = await readLock(suite);
  const tasks = suite.tasks.flatMap((task): SiteTask[] => {
    const entry = lock.tasks[task.id];
    if (!entry?.admitted) return [];
    const m = task.manifest;
    return [
      {
        id: task.id,
        kind: m.kind,
        language: m.language,
        grading: m.grading,
        orders: task.orders.length,
        knownFailures: m.knownFailures.length,
        failToPass: entry.orders.reduce((n, o) => n + o.failToPass.length, 0),
        passToPass: entry.orders.reduce((n, o) => n + o.passToPass.length, 0),
        origin: m.origin ?? null,
        public: m.public ?? null,
        ...(entry.adversarialExploits ? { adversarialExploits: entry.adversarialExploits } : {}),
        ...(entry.adversarialHackers ? { adversarialHackers: entry.adversarialHackers } : {}),
      },
    ];
  });
  return { id: suite.id, hash: suite.hash, controls: suite.controls, tasks, methodology: suite.methodology };
}

async function renderPages(dir: string, request: PublishRequest, suite: SiteSuite): Promise<Map<string, string>> {
  const store = openStore(dir, { create: false });
  try {
    const runs = store.listRuns();
    const evidence = await readFailureEvidence(store, runs);
    const view = await leaderboard(store, runs, evidence);
    if (view.mixed.length > 0) {
      const what = view.mixed.map((m) => `${m.field} (${m.values.join(' vs ')})`).join('; ');
      throw new UserError(`${request.results}: refusing to publish runs that differ in ${what}`);
    }
    const controlsList = [...store.controls().values()];
    const controls = controlsList.length === 1 ? controlsList[0] : controlsList;
    const [first, second] = view.agents;
    const comparison = first && second ? comparePaired(runs, { a: first.agent.id, b: second.agent.id, controls, evidence }) : null;
    const privateDetail = request.private ? await readPrivateDetail(store, runs) : undefined;
    // a fleet run's worker: the attempt the coordinator recorded as the run
    const workers = new Map(store.attempts().filter((a) => a.state === 'recorded').map((a) => [a.runId, a.worker]));
    return renderSite({ suite, view, runs, comparison, workers, costByClass: costByClassOf(runs), toolPolicy: describeToolPolicy(), generatedAt: new Date().toISOString(), ...(privateDetail ? { privateDetail } : {}) });
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
  if (index === null || !index.includes(SITE_MARKER) || entries.includes(DATABASE_NAME)) {
    throw new UserError(`--out ${shown}: not empty and not a site bakeoff publish wrote; choose an empty or new folder`);
  }
  await rm(path.join(out, 'agents'), { recursive: true, force: true });
  await rm(path.join(out, 'runs'), { recursive: true, force: true });
}

/*
 * Read from each run's artifacts (see run-task.ts):
 *   each order folder's prompt, change, agent log, a model agent's stream, and its grade folder's
 *   test output (or its generated checks) — named by store/run-folder.ts
 * and from the store: the run's checks, and each order's session with its model requests.
 */
export async function readPrivateDetail(store: Store, runs: readonly RunRecord[]): Promise<Map<string, PrivateOrderDetail[]>> {
  const detail = new Map<string, PrivateOrderDetail[]>();
  for (const run of runs) {
    const checks = store.checks(run.id);
    const sessions = store.sessions(run.id);
    const orders: PrivateOrderDetail[] = [];
    for (const { order } of run.orders) {
      const base = runOrderDir(store.runsDir, run.id, order);
      const grade = gradeFiles(orderFile(base, 'grade'));
      const stream = run.agent.harness === 'builtin' ? null : await readText(orderFile(base, 'stream'));
      const session = sessions.find((s) => s.order === order);
      orders.push({
        order,
        files: orderFilesInResults(run.id, order),
        prompt: await readText(orderFile(base, 'prompt')),
        patch: await readText(orderFile(base, 'change')),
        agentLog: await readText(orderFile(base, 'agentLog')),
        atKill: await readText(orderFile(base, 'atKill')),
        testOutput: (await readText(grade.testOutput)) ?? (await readText(grade.checks)),
        transcript: stream === null ? null : transcriptOf(run.agent.harness, stream),
        checks: checks.filter((c) => c.order === order).map(({ id, expected, status, message }) => ({ id, expected, status, ...(message ? { message } : {}) })),
        session: session === undefined ? null : siteSessionOf(session),
      });
    }
    detail.set(run.id, orders);
  }
  return detail;
}

function siteSessionOf(s: SessionRow): SiteSession {
  return {
    durationMs: s.durationMs,
    exitCode: s.exitCode,
    timedOut: s.timedOut,
    tokensIn: s.tokensIn,
    tokensOut: s.tokensOut,
    error: s.error,
    requests: (s.requests ?? []).map((r) => ({ seq: r.seq, model: r.model, status: r.status, failure: r.failure, latencyMs: r.latencyMs, input: r.input, output: r.output })),
  };
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The suite the runs were baked from (or --suite), loaded before the re-check; null when it
 * cannot be found or loaded here (the re-check then says why).
 */
async function bakedSuite(request: PublishRequest): Promise<Suite | null> {
  const cwd = cwdOf(request);
  let dir = request.suite === undefined ? undefined : path.resolve(cwd, request.suite);
  if (dir === undefined) {
    const store = openStore(path.resolve(cwd, request.results), { create: false });
    try {
      const hashes = new Set(store.listRuns().map((r) => r.suiteHash));
      dir = store.bakes().find((b) => hashes.has(b.suiteHash))?.suiteDir;
    } finally {
      store.close();
    }
  }
  return dir === undefined ? null : loadSuite(dir).catch(() => null);
}

function refuseDraftsOf(suite: Suite): void {
  const drafts = draftPrompts(suite);
  if (drafts.length === 0) return;
  throw new UserError(
    `${suite.dir}: ${drafts.length} prompt${drafts.length === 1 ? ' is a draft' : 's are drafts'} bakeoff wrote (${drafts.join(', ')}); ` +
      'rewrite them as the owner would state the problem and delete their first line, or publish with --allow-draft-prompts',
  );
}

/**
 * Each model agent's metered tokens priced class by class at the catalog's list price of its
 * model on each run's day; an agent whose model (on any run's day) the catalog lacks is left out.
 */
export function costByClassOf(runs: readonly RunRecord[]): Map<string, CostByClass> {
  const catalog = catalogInfo();
  const source = `${catalog.package} ${catalog.version}${catalog.dataDate ? ` (data of ${catalog.dataDate})` : ''}`;
  const out = new Map<string, CostByClass>();
  const byAgent = new Map<string, RunRecord[]>();
  for (const r of runs) if (r.usage && r.agent.model && r.agent.harness !== 'builtin') (byAgent.get(r.agent.id) ?? byAgent.set(r.agent.id, []).get(r.agent.id)!).push(r);
  for (const [id, own] of byAgent) {
    const sum = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
    let priced = true;
    for (const r of own) {
      const price = listPrice(r.agent.model!, undefined, new Date(r.startedAt));
      if (price === null) {
        priced = false;
        break;
      }
      const u = r.usage!;
      sum.input += Math.max(0, u.inputTokens - u.cacheReadTokens - u.cacheWriteTokens) * price.input / 1e6;
      sum.cacheRead += u.cacheReadTokens * price.cacheRead / 1e6;
      sum.cacheWrite += u.cacheWriteTokens * price.cacheWrite / 1e6;
      sum.output += u.outputTokens * price.output / 1e6;
    }
    if (priced) out.set(id, { ...sum, source });
  }
  return out;
}
