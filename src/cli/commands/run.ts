import { bake, type BakeOutcome } from '../../api/bake.js';
import { fleetLine, tallyAttempts } from '../../api/report.js';
import { jsonAgents } from '../../report/render/render-json.js';
import { renderMatrix } from '../../report/render/render-matrix.js';
import { renderTable } from '../../report/render/render-table.js';
import { median } from '../../report/stats/median.js';
import { createProgress, setupText } from '../progress.js';
import { EXIT, lockedWork, type CliIo } from '../io.js';
import { printNote } from '../notes.js';
import { sayOnStop } from '../stop-on-signals.js';
import { EXPLAIN_HINT, screenOf, WIDE_HINT } from '../screen.js';
import { RUN_OPTIONS, type RunFlags } from '../command-options.js';
import { requestOf } from '../option-table.js';


/** How progress names a run: `add × gold (replay 0)`. */
export function runLabel(task: string, agent: string, replay: number): string {
  return `${task} × ${agent} (replay ${replay})`;
}

/** `bakeoff run <suite> --agent …`: the library's `bake()`, with progress on the terminal and the leaderboard. */
export async function runCommand(dir: string, flags: RunFlags, io: CliIo): Promise<number> {
  const progress = createProgress(io.stderr, !flags.json);
  const { notes } = progress;
  const unsay = sayOnStop(() => {
    const { done, total, doneHere } = progress.counts();
    return total === 0 ? null : `${done} of ${total} runs stored, ${doneHere} of them by this command; every run that finished is kept`;
  });
  try {
    const outcome = await bake({
      suite: dir,
      ...requestOf(RUN_OPTIONS, flags),
      agents: flags.agent,
      ...(flags.auth === 'subscription' ? { auth: 'subscription' as const } : {}),
      ...lockedWork(flags, io),
      onEvent: (event) => {
        if (printNote(notes, event)) return;
        if (event.type === 'plan') progress.start(event.total, event.alreadyDone);
        else if (event.type === 'setup-progress') progress.activity(`setting up ${event.task}: ${setupText(event.progress)}`);
        else if (event.type === 'prepare') progress.activity(null);
        else if (event.type === 'run-start') progress.itemStarted(event.runId, runLabel(event.task, event.agent, event.replay));
        else if (event.type === 'run-stage') progress.itemStage(event.runId, `${event.stage} ${event.order}`);
        else if (event.type === 'pool-hold') progress.activity(event.why === null ? null : `waiting: ${event.why}`);
        else {
          const { id, task, agent, replay, outcome } = event.record;
          const tally = outcome.kind === 'solved' ? ['solved'] : outcome.kind === 'void' ? ['void'] : [];
          const verdict = outcome.kind === 'solved' ? 'solved' : `${outcome.kind} (${outcome.reason})`;
          progress.itemEnded(id, runLabel(task, agent.id, replay) + (event.worker ? ` on ${event.worker}` : ''), { verdict, tally, ...(event.worker ? { by: event.worker } : {}) });
        }
      },
    });
    progress.finish();
    const { results, summary, view } = outcome;
    const refused = outcome.fleet?.refused.length ?? 0;
    // runs the workers refused (or whose results were not sealed as theirs) are not recorded: the same command again redoes them
    if (refused > 0) notes.error(`${refused} run(s) not recorded: the workers refused them, or what came back was not sealed as theirs (each said above); fix that and run the same command again`);
    if (flags.json) {
      const json = {
        schemaVersion: 1,
        results,
        suite: outcome.suite,
        planned: summary.planned,
        alreadyDone: summary.alreadyDone,
        ran: summary.ran,
        rejected: summary.rejected,
        agents: jsonAgents(view),
        ...(outcome.fleet ? { fleet: fleetJson(outcome.fleet) } : {}),
        notes: notes.notes,
        errors: notes.errors,
      };
      io.stdout.write(JSON.stringify(json, null, 2) + '\n');
    } else {
      const screen = screenOf(io, flags);
      io.stdout.write(renderTable(view, { ...screen, wideHint: WIDE_HINT, explain: flags.explain === true, explainHint: EXPLAIN_HINT }) + '\n');
      if (flags.matrix === true) io.stdout.write(renderMatrix(view, screen.width) + '\n\n');
      io.stdout.write(`results: ${results} (${summary.ran} run(s) this time, ${summary.alreadyDone} already done)\n`);
      const fleet = outcome.fleet;
      if (fleet && fleet.attempts.length > 0) {
        const perWorker = Object.entries(fleet.runsPerWorker).map(([worker, n]) => `${worker} ${n}`);
        io.stdout.write(`${fleetLine(tallyAttempts(fleet.attempts)).replace(/^fleet: /, 'fleet, this time: ')}; runs per worker: ${perWorker.join(', ') || 'none'}\n`);
      }
    }
    return outcome.infraErrors > 0 || refused > 0 ? EXIT.infra : EXIT.ok;
  } finally {
    unsay();
    progress.finish();
  }
}

/** `run --queue --json`'s `fleet`: what worker loss cost this bake, and the coordinator's own time per run. */
function fleetJson(fleet: NonNullable<BakeOutcome['fleet']>) {
  const tally = tallyAttempts(fleet.attempts);
  return {
    reExecuted: fleet.reExecuted,
    abandonedAttempts: fleet.abandonedAttempts,
    abandonedCostUsd: tally.abandonedCostUsd,
    abandonedTokensIn: tally.abandonedTokensIn,
    abandonedTokensOut: tally.abandonedTokensOut,
    abandonedRequests: tally.abandonedRequests,
    runsPerWorker: fleet.runsPerWorker,
    duplicatesIgnored: fleet.duplicatesIgnored,
    enqueueMsPerRun: Math.round(fleet.enqueueMs * 100) / 100,
    medianIngestMs: median(fleet.ingestMs),
    medianTrustMs: median(fleet.trustMs),
    refused: fleet.refused,
  };
}
