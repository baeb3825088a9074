import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { transcriptOf } from '../agents/index.js';
import { UserError } from '../errors.js';
import { atifTrajectory, swebenchPredictions, type PredictionsResult } from '../export/index.js';
import { DATABASE_NAME, openStore, orderDirName, orderFile, resultsPaths, runOrderDir, type Store } from '../store/index.js';
import { loadSuite, type Suite } from '../suite/index.js';
import { exists } from '../util/index.js';
import { cwdOf, type Place } from './paths.js';

export interface ExportPredictionsRequest extends Place {
  readonly results: string;
  /** The suite the runs were baked from; default: the folder the results record. */
  readonly suite?: string;
  /** 0-based replay to export (default 0: each agent's first run of each task). */
  readonly replay?: number;
  /** Only these agent ids. */
  readonly agents?: readonly string[];
}

/** `bakeoff export swebench-predictions`: the runs of SWE-bench tasks as predictions lines (see export's swebenchPredictions). */
export async function exportSwebenchPredictions(request: ExportPredictionsRequest): Promise<PredictionsResult> {
  const results = path.resolve(cwdOf(request), request.results);
  return withStore(results, async (store) => {
    const suite = await suiteOf(store, request);
    const runs = store.listRuns();
    return swebenchPredictions(runs, suite, (run) => readOrNull(orderFile(runOrderDir(store.runsDir, run.id, 1), 'change')), { replay: request.replay ?? 0, ...(request.agents ? { agents: request.agents } : {}) });
  });
}

export interface ExportAtifRequest extends Place {
  readonly results: string;
  /** A new folder: `<run-id>/order-<n>/trajectory.json` per recorded session. */
  readonly out: string;
}

/**
 * `bakeoff export atif`: an ATIF trajectory per model agent session of the results folder (runs
 * of built-in agents have no session stream and are left out). Written into a new folder, whole.
 */
export async function exportAtif(request: ExportAtifRequest): Promise<{ trajectories: number; skipped: number; out: string }> {
  const cwd = cwdOf(request);
  const results = path.resolve(cwd, request.results);
  const out = path.resolve(cwd, request.out);
  if (await exists(out)) throw new UserError(`--out ${request.out}: exists already; give a new folder`);
  return withStore(results, async (store) => {
    const tmp = `${out}.tmp-${process.pid}`;
    let trajectories = 0;
    let skipped = 0;
    try {
      for (const run of store.listRuns()) {
        const sessions = store.sessions(run.id);
        for (const { order } of run.orders) {
          const base = runOrderDir(store.runsDir, run.id, order);
          const stream = run.agent.harness === 'builtin' ? null : await readFile(orderFile(base, 'stream'), 'utf8').catch(() => null);
          const transcript = stream === null ? null : transcriptOf(run.agent.harness, stream);
          if (transcript === null) {
            skipped++;
            continue;
          }
          const prompt = (await readFile(orderFile(base, 'prompt'), 'utf8').catch(() => null)) ?? '';
          const trajectory = atifTrajectory({ run, order, prompt, transcript, session: sessions.find((s) => s.order === order) ?? null });
          // the export mirrors the results folder: <run-id>/<order folder>/trajectory.json
          await mkdir(path.join(tmp, run.id, orderDirName(order)), { recursive: true });
          await writeFile(path.join(tmp, run.id, orderDirName(order), 'trajectory.json'), JSON.stringify(trajectory, null, 2) + '\n');
          trajectories++;
        }
      }
      await mkdir(tmp, { recursive: true });
      await rename(tmp, out);
    } catch (error) {
      await rm(tmp, { recursive: true, force: true });
      throw error;
    }
    return { trajectories, skipped, out };
  });
}

async function withStore<T>(results: string, work: (store: Store) => Promise<T>): Promise<T> {
  if (!(await exists(resultsPaths(results).database))) throw new UserError(`${results}: not a results folder (no ${DATABASE_NAME}); give the folder \`bakeoff run --out\` wrote`);
  const store = openStore(results, { create: false });
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

async function suiteOf(store: Store, request: ExportPredictionsRequest): Promise<Suite> {
  const cwd = cwdOf(request);
  const hashes = new Set(store.listRuns().map((r) => r.suiteHash));
  const dir = request.suite !== undefined ? path.resolve(cwd, request.suite) : store.bakes().find((b) => hashes.has(b.suiteHash))?.suiteDir;
  if (dir === undefined) throw new UserError(`${request.results}: holds no runs of a suite it records the folder of; give --suite DIR`);
  return loadSuite(dir);
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
