import { finishStop, maskUrlPasswords, quoteShellArg, stopEverything } from '../util/index.js';
import type { RunningWorker } from '../api/index.js';

const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

/** How long a stop waits for the handed-back runs to unwind after their sandboxes were killed. */
const UNWIND_MS = 10_000;

/**
 * A worker's graceful stop (Kubernetes stops pods with SIGTERM, then SIGKILL after
 * `terminationGracePeriodSeconds`): the first SIGTERM or SIGINT stops taking runs at once, lets
 * the running ones finish within `graceSec`, hands the rest back to the queue unrecorded (they
 * run again elsewhere, at once) and kills their sandboxes; `exitCode()` then resolves with 0
 * when every run finished, else 143 / 130. Nothing the stop cut short is handed back as a run.
 * A second signal quits at once (their runs come back after their lease; the next bakeoff
 * sweeps what is left). `unhandle()` removes the handlers.
 */
export function stopWorkerOnSignals(
  worker: RunningWorker,
  options: { readonly name: string; readonly graceSec: number; readonly stderr: NodeJS.WritableStream; readonly argv: readonly string[] },
): { unhandle(): void; /** Null until a signal came. */ exitCode(): Promise<number> | null } {
  const { stderr } = options;
  let stopping = false;
  let done: Promise<number> | null = null;
  const onSignal = (signal: keyof typeof SIGNAL_EXIT): void => {
    const again = signal === 'SIGINT' ? 'Ctrl-C' : signal;
    if (stopping) {
      stderr.write(`bakeoff: ${signal} again: quitting now; the runs it had started go back to the queue after their lease, and the next bakeoff command clears what is left\n`);
      process.exit(SIGNAL_EXIT[signal]);
    }
    stopping = true;
    stderr.write(`bakeoff: ${signal}: worker ${options.name} takes no more runs; the running ones may finish within ${options.graceSec} s (--grace-sec), then the rest go back to the queue unrecorded (${again} again to quit at once)\n`);
    done = (async () => {
      const { finished, handedBack } = await worker.stop(options.graceSec * 1000);
      if (handedBack.length > 0) {
        // what the handed-back runs still run: nothing of them is handed back any more
        await stopEverything();
        await Promise.race([worker.stopped.catch(() => {}), new Promise((resolve) => setTimeout(resolve, UNWIND_MS).unref())]);
      } else {
        await worker.stopped.catch(() => {});
      }
      const command = ['bakeoff', ...options.argv.map((a) => maskUrlPasswords(/^[\w@%+=:,./-]+$/.test(a) ? a : quoteShellArg(a)))].join(' ');
      stderr.write(
        `bakeoff: stopped: ${finished} run(s) finished during the stop; ${handedBack.length} handed back to the queue unrecorded (they run again on another worker)` +
          `; to start it again:\n  ${command}\n`,
      );
      finishStop();
      return handedBack.length > 0 ? SIGNAL_EXIT[signal] : 0;
    })();
  };
  const onInt = (): void => onSignal('SIGINT');
  const onTerm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    unhandle: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
    exitCode: () => done,
  };
}
