import os from 'node:os';
import path from 'node:path';
import { resolveAgent } from '../../agents/registry.js';
import { UserError } from '../../errors.js';
import { summarize, renderTable } from '../../report/index.js';
import { runBake } from '../../run/run-bake.js';
import { runtimeVersions } from '../../run/runtime-versions.js';
import { requireTools } from '../../sandbox/require-tools.js';
import { loadSuite } from '../../suite/load-suite.js';
import { readLock } from '../../suite/lock.js';
import { openStore } from '../../store/open-store.js';
import { BAKEOFF_VERSION } from '../../version.js';
import { createProgress } from '../progress.js';
import { isolationFor } from '../isolation-for.js';
import { cacheDir, EXIT, type CliIo } from '../io.js';

export interface RunFlags {
  readonly agent: readonly string[];
  readonly runs?: number;
  readonly out?: string;
  readonly concurrency: number;
  readonly json: boolean;
  readonly unsafeNoSandbox: boolean;
}

/** `bakeoff run <suite> --agent …`: plan, run (resuming), store, print the leaderboard. */
export async function runCommand(dir: string, flags: RunFlags, io: CliIo): Promise<number> {
  if (flags.agent.length === 0) throw new UserError('--agent: expected at least one agent spec, received none');
  const suite = await loadSuite(path.resolve(io.cwd, dir));
  const lock = await readLock(suite);
  const out = path.resolve(io.cwd, flags.out ?? path.join('results', suite.id));
  const forbiddenRoots = [suite.dir, out, cacheDir(io), path.join(os.tmpdir(), 'bakeoff-scratch')];
  const agents = await Promise.all(flags.agent.map((spec) => resolveAgent(spec, { cwd: io.cwd, forbiddenRoots })));
  const ids = agents.map((a) => a.info.id);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new UserError(`--agent: each agent may appear once, received ${JSON.stringify(duplicate)} twice`);
  await requireTools(['bwrap', 'git']);
  const isolation = await isolationFor(suite.controls, flags.unsafeNoSandbox, io);
  const store = openStore(out, { create: true });
  const progress = createProgress(io.stderr, !flags.json);
  let infraErrors = 0;
  try {
    const summary = await runBake({
      suite,
      lock,
      agents,
      ...(flags.runs ? { runsPerTask: flags.runs } : {}),
      concurrency: flags.concurrency,
      store,
      isolation,
      cacheDir: cacheDir(io),
      runtime: await runtimeVersions(BAKEOFF_VERSION),
      onEvent: (event) => {
        if (event.type === 'plan') {
          for (const r of event.rejected) progress.note(`skipping ${r.task}: rejected by validate (${r.reason})`);
          progress.start(event.total, event.alreadyDone);
        } else if (event.type === 'prepare') {
          if (!event.ok) progress.note(`setup failed for ${event.task}: its runs are void`);
        } else {
          progress.runEnded(event.record);
          if (event.error) {
            infraErrors++;
            progress.note(`run ${event.record.id} (${event.record.task}, ${event.record.agent.id}) is void: ${event.error.message}`);
          }
        }
      },
    });
    progress.finish();
    const runs = store.listRuns().filter((r) => r.suiteHash === suite.hash);
    const view = summarize(runs, { standardRunsPerTask: suite.controls.runsPerTask, controls: suite.controls });
    if (flags.json) {
      io.stdout.write(JSON.stringify({ results: out, planned: summary.planned, alreadyDone: summary.alreadyDone, ran: summary.ran, rejected: summary.rejected, agents: view.agents }, null, 2) + '\n');
    } else {
      io.stdout.write(renderTable(view, { color: io.stdout.isTTY === true }) + '\n');
      io.stdout.write(`results: ${out} (${summary.ran} run(s) this time, ${summary.alreadyDone} already done)\n`);
    }
  } finally {
    store.close();
  }
  return infraErrors > 0 ? EXIT.infra : EXIT.ok;
}
