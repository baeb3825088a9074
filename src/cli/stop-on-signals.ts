import { finishStop, isStopping, maskUrlPasswords, quoteShellArg, stopEverything } from '../util/index.js';

const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

let finished: (() => string | null) | null = null;

/**
 * What a stop says finished (`5 of 16 runs stored, 3 of them by this command`): the command
 * that knows sets it while it works; call the result when it is done.
 */
export function sayOnStop(what: () => string | null): () => void {
  finished = what;
  return () => {
    // a stop unwinds the command before it prints: what finished is said then, from these counts
    if (finished === what && !isStopping()) finished = null;
  };
}

/**
 * For the commands that run sandboxes (run, validate, verify, publish): the first SIGINT or
 * SIGTERM kills every sandbox, unmounts, removes cgroups and temp folders (util's stop), says
 * that every finished run is kept and how to resume, and exits 130 / 143; nothing cut short is
 * recorded. A second signal exits at once (the next bakeoff sweeps what is left). Returns a
 * function that removes the handlers.
 */
export function stopOnSignals(stderr: NodeJS.WritableStream, argv: readonly string[]): () => void {
  let stopping = false;
  const onSignal = (signal: keyof typeof SIGNAL_EXIT): void => {
    if (stopping) {
      stderr.write(`bakeoff: ${signal} again: quitting now; the next bakeoff command clears what is left\n`);
      process.exit(SIGNAL_EXIT[signal]);
    }
    stopping = true;
    stderr.write(`bakeoff: ${signal}: stopping — killing the sandboxes, unmounting, removing temp folders (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit at once)\n`);
    void stopEverything().finally(() => {
      // a password typed in a --queue URL is never echoed
      const command = ['bakeoff', ...argv.map((a) => maskUrlPasswords(/^[\w@%+=:,./-]+$/.test(a) ? a : quoteShellArg(a)))].join(' ');
      const stored = finished?.() ?? null;
      const resume = argv[0] === 'run' ? `${stored ?? 'every run that finished is stored'}; to resume, run the same command again` : 'run the same command again to start over';
      stderr.write(`bakeoff: stopped: ${resume}:\n  ${command}\n`);
      finishStop();
      process.exit(SIGNAL_EXIT[signal]);
    });
  };
  const onInt = (): void => onSignal('SIGINT');
  const onTerm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return () => {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  };
}
