import path from 'node:path';
import { maskUrlPasswords } from '../util/mask-url-passwords.js';
import { quoteShellArg } from '../util/shell-quote.js';
import { finishStop, isStopping, stopEverything } from '../util/shutdown.js';

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
export function stopOnSignals(stderr: NodeJS.WritableStream & { isTTY?: boolean }, argv: readonly string[]): () => void {
  let stopping = false;
  // on a terminal, the live progress line is cleared first, so each message stands on its own line
  const say = (text: string): void => void stderr.write(`${stderr.isTTY === true ? '\r\x1b[2K' : ''}${text}\n`);
  const onSignal = (signal: keyof typeof SIGNAL_EXIT): void => {
    if (stopping) {
      say(`bakeoff: ${signal} again: quitting now; the next bakeoff command clears what is left`);
      process.exit(SIGNAL_EXIT[signal]);
    }
    stopping = true;
    say(`bakeoff: ${signal}: stopping — killing the sandboxes, unmounting, removing temp folders (${signal === 'SIGINT' ? 'Ctrl-C' : signal} again to quit at once)`);
    void stopEverything().finally(() => {
      const command = [invokedAs(), ...argv.map(shellWord)].join(' ');
      const stored = finished?.() ?? null;
      const resume =
        argv[0] === 'run'
          ? `${stored ?? 'every run that finished is stored'}; to resume, run the same command again`
          : argv[0] === 'worker'
            ? 'the runs it had started go back to the queue for another worker after their lease; to start it again'
            : 'run the same command again to start over';
      say(`bakeoff: stopped: ${resume}:\n  ${command}`);
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

/**
 * How the user started bakeoff, to repeat in a resume hint: `npx bakeoff` under npx (npm
 * sets `npm_command=exec`), `bakeoff` from a bin on PATH, else `node <the script as given>`.
 */
export function invokedAs(env: NodeJS.ProcessEnv = process.env, script: string | undefined = process.argv[1]): string {
  if (env.npm_command === 'exec') return 'npx bakeoff';
  if (script === undefined || path.basename(script) === 'bakeoff') return 'bakeoff';
  const relative = path.relative(process.cwd(), script);
  return `node ${shellWord(relative.startsWith('..') || relative === '' ? script : relative)}`;
}

/** An argument as a user would type it: bare when the shell leaves it alone, else quoted; a password typed in a --queue URL is never echoed. */
function shellWord(arg: string): string {
  return maskUrlPasswords(/^[\w@%+=:,./-]+$/.test(arg) ? arg : quoteShellArg(arg));
}
