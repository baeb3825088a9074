import { hostname } from 'node:os';
import { emptyQueueAt, queueStatusAt, work } from '../../api/index.js';
import { EXIT, placeOf, type CliIo } from '../io.js';
import { createNotes } from '../notes.js';

export interface WorkerFlags {
  readonly queue: string;
  readonly concurrency: number;
  readonly name?: string;
  readonly leaseSec: number;
  readonly json: boolean;
}

/**
 * `bakeoff worker --queue URL`: runs the fleet's runs on this machine until stopped (Ctrl-C,
 * SIGTERM: the runs it had started go back to the queue for another worker after their lease).
 * One line per run started and ended on stderr; with `--json`, one JSON event per line on stdout.
 */
export async function workerCommand(flags: WorkerFlags, io: CliIo): Promise<number> {
  const notes = createNotes(io.stderr);
  const name = flags.name ?? `${hostname()}-${process.pid}`;
  const worker = await work({
    queue: flags.queue,
    name,
    concurrency: flags.concurrency,
    leaseSec: flags.leaseSec,
    ...placeOf(io),
    onEvent: (event) => {
      if (event.type === 'note') return notes.note(event.message);
      if (event.type === 'error') return notes.error(event.message);
      if (flags.json) return void io.stdout.write(JSON.stringify(event) + '\n');
      if (event.type === 'ready') io.stderr.write(`bakeoff: worker ${event.name} ready: ${event.concurrency} run(s) at once\n`);
      else if (event.type === 'job-start') io.stderr.write(`bakeoff: start ${event.task} × ${event.agent} (replay ${event.replay}), run ${event.runId.slice(0, 12)}, attempt ${event.attempt}\n`);
      else io.stderr.write(`bakeoff: end   run ${event.runId.slice(0, 12)}: ${event.verdict}\n`);
    },
  });
  await worker.stopped;
  return EXIT.ok;
}

export interface QueueFlags {
  readonly queue: string;
  readonly json: boolean;
}

/** `bakeoff queue status|drain|clear --queue URL`. */
export async function queueCommand(action: string, flags: QueueFlags, io: CliIo): Promise<number> {
  const notes = createNotes(io.stderr);
  const place = placeOf(io);
  if (action === 'status') {
    const status = await queueStatusAt({ queue: flags.queue, ...place }, notes);
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
      `runs: ${jobs.waiting} waiting, ${jobs.active} running, ${jobs.delayed} delayed, ${jobs.completed} done and not yet stored, ${jobs.failed} failed and not yet stored`,
      `workers: ${workers.length}`,
      ...workers.map((w) => `  ${w.name} (${w.host}, pid ${w.pid}, bakeoff ${w.bakeoffVersion}): ${w.active.length}/${w.concurrency} running`),
    ];
    io.stdout.write(lines.join('\n') + '\n');
    return EXIT.ok;
  }
  const { removed } = await emptyQueueAt({ queue: flags.queue, ...place }, notes, action as 'drain' | 'clear');
  if (flags.json) io.stdout.write(JSON.stringify({ schemaVersion: 1, action, removed }) + '\n');
  else io.stdout.write(action === 'drain' ? `took ${removed} run(s) nobody had started out of the queue\n` : `cleared the queue: ${removed} run(s) (queued, running or finished but not stored) and bakeoff's keys removed; results folders are untouched\n`);
  return EXIT.ok;
}
