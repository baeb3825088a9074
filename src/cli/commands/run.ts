import os from 'node:os';
import path from 'node:path';
import { openModelUpstream, resolveAgents, type Agent } from '../../agents/index.js';
import type { PriceBook } from '../../meter/index.js';
import { UserError } from '../../errors.js';
import { summarize, renderTable } from '../../report/index.js';
import { runBake, runtimeVersions } from '../../run/index.js';
import { requireTools } from '../../sandbox/index.js';
import { loadSuite, readLock, type SuiteLock, type Suite } from '../../suite/index.js';
import { openStore, type ResultsLock } from '../../store/index.js';
import { BAKEOFF_VERSION } from '../../version.js';
import { clock, createProgress } from '../progress.js';
import { isolationFor } from '../isolation-for.js';
import { lockResultsFor } from '../lock-results-for.js';
import { cacheDir, EXIT, type CliIo } from '../io.js';

export interface RunFlags {
  readonly agent: readonly string[];
  /** An agents file of named model agents. */
  readonly agents?: string;
  /** Where model agents' requests go: vendor (default), openrouter, a base URL, scripted:<script>. */
  readonly upstream: string;
  /** A prices file overriding the catalog's list prices. */
  readonly prices?: string;
  /** Seconds without a byte from the model API before a request counts as hung. */
  readonly upstreamIdleTimeout: number;
  /** Run model agents under strace and flag every address they try other than the proxy. */
  readonly traceNetwork: boolean;
  /** patch: agents on tasks their file does not name: `skip` (default) or `empty` changes. */
  readonly patchMissing?: 'skip' | 'empty';
  readonly runs?: number;
  readonly out?: string;
  readonly concurrency: number;
  readonly json: boolean;
  /** Wait for another process using the results folder to finish, instead of refusing. */
  readonly wait: boolean;
  readonly unsafeNoSandbox: boolean;
}

/** `bakeoff run <suite> --agent …`: plan, run (resuming), store, print the leaderboard. */
export async function runCommand(dir: string, flags: RunFlags, io: CliIo): Promise<number> {
  if (flags.agent.length === 0 && !flags.agents) throw new UserError('--agent: expected at least one agent spec (or --agents <file>), received none');
  const suite = await loadSuite(path.resolve(io.cwd, dir));
  const lock = await readLock(suite);
  const out = path.resolve(io.cwd, flags.out ?? path.join('results', suite.id));
  const forbiddenRoots = [suite.dir, out, cacheDir(io), path.join(os.tmpdir(), 'bakeoff-scratch')];
  // The price catalog is large: loaded only when a model agent is asked for (it opens the upstream first).
  let prices: PriceBook | undefined;
  const { agents, upstream } = await resolveAgents(flags.agent, {
    cwd: io.cwd,
    forbiddenRoots,
    suiteTasks: new Map(suite.tasks.map((t) => [t.id, t.orders.length])),
    ...(flags.agents ? { agentsFile: flags.agents } : {}),
    openUpstream: async (formats) => {
      const { openPriceBook } = await import('../../meter/index.js');
      prices = await openPriceBook(flags.prices ? path.resolve(io.cwd, flags.prices) : undefined);
      return openModelUpstream(flags.upstream, { cwd: io.cwd, env: io.env, formats });
    },
    priceOf: (model, at) => prices!.priceOf(model, undefined, at),
    idleTimeoutMs: flags.upstreamIdleTimeout * 1000,
    traceNetwork: flags.traceNetwork,
  });
  const progress = createProgress(io.stderr, !flags.json);
  try {
    // One bakeoff per results folder, from before the store is opened (which clears runs/.tmp-*) to the end.
    const resultsLock = await lockResultsFor(out, { command: 'run', create: true, wait: flags.wait, notes: progress.notes });
    try {
      const modelRuntime: Record<string, string> = upstream && prices ? { upstream: upstream.name, prices: prices.source } : {};
      return await runWithAgents({ suite, lock, out, agents, modelRuntime, resultsLock, progress }, flags, io);
    } finally {
      resultsLock.release();
    }
  } finally {
    await upstream?.close();
  }
}

interface BakeContext {
  readonly suite: Suite;
  readonly lock: SuiteLock;
  readonly out: string;
  readonly agents: readonly Agent[];
  readonly modelRuntime: Readonly<Record<string, string>>;
  readonly resultsLock: ResultsLock;
  readonly progress: ReturnType<typeof createProgress>;
}

async function runWithAgents(context: BakeContext, flags: RunFlags, io: CliIo): Promise<number> {
  const { suite, lock, out, agents, modelRuntime, resultsLock, progress } = context;
  const { notes } = progress;
  await requireTools(flags.traceNetwork ? ['bwrap', 'git', 'strace'] : ['bwrap', 'git']);
  const isolation = await isolationFor(suite.controls, flags.unsafeNoSandbox, notes);
  const store = openStore(out, { create: true });
  let infraErrors = 0;
  try {
    const summary = await runBake({
      suite,
      lock,
      agents,
      ...(flags.runs ? { runsPerTask: flags.runs } : {}),
      concurrency: flags.concurrency,
      ...(flags.patchMissing ? { patchMissing: flags.patchMissing } : {}),
      store,
      resultsLock,
      isolation,
      cacheDir: cacheDir(io),
      runtime: { ...(await runtimeVersions(BAKEOFF_VERSION)), ...modelRuntime },
      onEvent: (event) => {
        if (event.type === 'plan') {
          for (const r of event.rejected) notes.note(`skipping ${r.task}: rejected by validate (${r.reason})`);
          progress.start(event.total, event.alreadyDone);
        } else if (event.type === 'setup-progress') {
          const p = event.progress;
          progress.activity(`setting up ${event.task}: ${p.command} (${clock(p.elapsedSec)})${p.lastLine ? ` — ${p.lastLine}` : ''}`);
        } else if (event.type === 'prepare') {
          progress.activity(null);
          if (!event.ok) notes.error(`setup failed for ${event.task}: its runs are void (${event.reason ?? 'no reason given'})`);
          else if (!event.cached) notes.note(`set up ${event.task}`);
        } else {
          progress.runEnded(event.record);
          if (event.error) {
            infraErrors++;
            notes.error(`run ${event.record.id} (${event.record.task}, ${event.record.agent.id}) is void: ${event.error.message}`);
          }
        }
      },
    });
    progress.finish();
    const runs = store.listRuns().filter((r) => r.suiteHash === suite.hash);
    const admitted = suite.tasks.filter((t) => lock.tasks[t.id]?.admitted === true).map((t) => t.id);
    const view = summarize(runs, { standardRunsPerTask: suite.controls.runsPerTask, controls: suite.controls, tasks: admitted });
    if (flags.json) {
      const json = { results: out, planned: summary.planned, alreadyDone: summary.alreadyDone, ran: summary.ran, rejected: summary.rejected, agents: view.agents, notes: notes.notes, errors: notes.errors };
      io.stdout.write(JSON.stringify(json, null, 2) + '\n');
    } else {
      io.stdout.write(renderTable(view, { color: io.stdout.isTTY === true }) + '\n');
      io.stdout.write(`results: ${out} (${summary.ran} run(s) this time, ${summary.alreadyDone} already done)\n`);
    }
  } finally {
    progress.finish();
    store.close();
  }
  return infraErrors > 0 ? EXIT.infra : EXIT.ok;
}
