import { hostname } from 'node:os';
import { emptyQueueAt, queueStatusAt, work } from '../../api/work.js';
import { QUEUE_OPTIONS, WORKER_OPTIONS, type QueueFlags, type WorkerFlags } from '../command-options.js';
import { EXIT, placeOf, type CliIo } from '../io.js';
import { requestOf } from '../option-table.js';
import { createNotes } from '../notes.js';
import { stopWorkerOnSignals } from '../stop-worker-on-signals.js';

/**
 * `bakeoff worker --queue URL`: runs the fleet's runs on this machine until stopped. SIGTERM or
 * Ctrl-C stop it gracefully (no new run; the running ones finish within --grace-sec; the rest go
 * back to the queue unrecorded). One line per run started and ended on stderr; with `--json`, one
 * JSON event per line on stdout.
 */
export async function workerCommand(flags: WorkerFlags, io: CliIo): Promise<number> {
  const notes = createNotes(io.stderr);
  const name = flags.name ?? `${hostname()}-${process.pid}`;
  const worker = await work({
    ...requestOf(WORKER_OPTIONS, flags),
    name,
    ...placeOf(io),
    onEvent: (event) => {
      if (event.type === 'note') return notes.note(event.message);
      if (event.type === 'error') return notes.error(event.message);
      if (flags.json) return void io.stdout.write(JSON.stringify(event) + '\n');
      const say = (line: string) => io.stderr.write(`bakeoff: ${line}\n`);
      if (event.type === 'ready') say(`worker ${event.name} ready: ${event.concurrency} run(s) at once; model APIs it sends its keys to: ${event.upstreams.join(', ')}`);
      else if (event.type === 'job-start') say(`start ${event.task} × ${event.agent} (replay ${event.replay}), run ${event.runId.slice(0, 12)}, attempt ${event.attempt}`);
      else if (event.type === 'job-end') say(`end   run ${event.runId.slice(0, 12)}: ${event.verdict}`);
      else if (event.type === 'job-refused') say(`refused run ${event.runId.slice(0, 12)}: ${event.reason}; nothing of it ran`);
      else if (event.type === 'job-superseded') say(`run ${event.runId.slice(0, 12)}, attempt ${event.attempt}: superseded — the queue no longer leases this run to this attempt (cleared, or given to another attempt); its result is not handed back`);
      else if (event.type === 'handed-back') say(`handed run ${event.runId.slice(0, 12)} (attempt ${event.attempt}) back to the queue unrecorded: it runs again on another worker`);
    },
  });
  const signals = io.handleSignals ? stopWorkerOnSignals(worker, { name, graceSec: flags.graceSec, stderr: io.stderr, argv: process.argv.slice(2) }) : null;
  try {
    await worker.stopped;
    return (await signals?.exitCode()) ?? EXIT.ok;
  } finally {
    signals?.unhandle();
  }
}

/** `bakeoff queue status|drain|clear --queue URL`. */
export async function queueCommand(action: string, flags: QueueFlags, io: CliIo): Promise<number> {
  const notes = createNotes(io.stderr);
  const place = { ...requestOf(QUEUE_OPTIONS, flags), ...placeOf(io) };
  if (action === 'status') {
    const status = await queueStatusAt(place, notes);
    if (flags.json) {
      io.stdout.write(JSON.stringify({ schemaVersion: 1, ...status }, null, 2) + '\n');
      return EXIT.ok;
    }
    const { bake, jobs, workers } = status;
    const lines = [
      `queue ${status.url}`,
      bake
        ? `bake: suite ${bake.suiteId} (hash ${bake.suiteHash.slice(0, 12)}…), bakeoff ${bake.bakeoffVersion}, coordinator ${bake.coordinator ?? 'none running'}, since ${bake.startedAt}`
        : 'bake: none',
      `runs: ${jobs.waiting} waiting, ${jobs.active} running, ${jobs.delayed} delayed, ${jobs.completed} done and not yet stored, ${jobs.failed} failed or refused and not yet stored` +
        (jobs.lost > 0 ? `; ${jobs.lost} whose worker is gone (back in the queue within a lease)` : ''),
      `workers: ${workers.length}`,
      ...workers.map((w) => `  ${w.name} (${w.host}, pid ${w.pid}, bakeoff ${w.bakeoffVersion}): ${w.active.length}/${w.concurrency} running${w.stopping ? ', stopping' : ''}`),
    ];
    io.stdout.write(lines.join('\n') + '\n');
    return EXIT.ok;
  }
  const { removed } = await emptyQueueAt(place, notes, action as 'drain' | 'clear');
  if (flags.json) io.stdout.write(JSON.stringify({ schemaVersion: 1, action, removed }) + '\n');
  else
    io.stdout.write(
      action === 'drain'
        ? `took ${removed} run(s) nobody had started out of the queue\n`
        : `cleared the queue: ${removed} run(s) (queued, running or finished but not stored) and bakeoff's keys removed — but the ledger of attempts already made, counted when their runs are redone; results folders are untouched\n`,
    );
  return EXIT.ok;
}
