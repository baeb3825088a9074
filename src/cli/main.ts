import { Command, CommanderError } from 'commander';
import { InfraError, UserError } from '../errors.js';
import { escapeControl } from '../util/escape-control.js';
import { weighThisProcess } from '../util/host-weight.js';
import { isStopping } from '../util/shutdown.js';
import { BAKEOFF_VERSION } from '../version.js';
import { explainEnvironmentError } from './explain-error.js';
import { stopOnSignals } from './stop-on-signals.js';
import { COMMANDS, PARENTS } from './command-table.js';
import { EXIT, type CliIo } from './io.js';
import { addOptions, type FlagsOf, type OptionTable } from './option-table.js';

const defaultIo = (): CliIo => ({ stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env, handleSignals: true });

/** The commands that run sandboxes: a signal stops them cleanly (model-server and worker handle their own). */
const SANDBOX_COMMANDS = new Set(['run', 'validate', 'verify', 'publish', 'task', 'import']);

/**
 * Parses argv, runs one command, and maps every error to an exit code. The only catch. Each
 * command's module is loaded when it runs, so `--help` and a mistyped flag answer at once.
 */
export async function main(argv: readonly string[], io: CliIo = defaultIo()): Promise<number> {
  let code: number = EXIT.ok;
  const command = argv[0] !== undefined && !argv[0].startsWith('-') ? argv[0] : null;
  // the test runners' formats are `task from-commit --format`'s choices: loaded (all eight runners) only for `task` and `help`
  const reportFormats = command === 'task' || command === 'help' ? (await import('../api/report-formats.js')).REPORT_FORMATS : [];
  // the sandbox backends are `--sandbox`'s choices: loaded only for the commands that run sandboxes, and `help`
  const sandboxNames = (command !== null && SANDBOX_COMMANDS.has(command)) || command === 'help' ? (await import('../api/sandbox-names.js')).SANDBOX_NAMES : [];
  const program = new Command('bakeoff')
    .description('Fair, replayable bake-offs of AI coding agents')
    .version(BAKEOFF_VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // commander's own messages (a bad option value, an unknown command) say `bakeoff:` like every other error
      outputError: (s, write) => write(s.replace(/^error: /, 'bakeoff: ')),
    });

  const named = { sandboxes: sandboxNames, 'report-formats': reportFormats };
  const parents = new Map<string, Command>();
  for (const entry of COMMANDS) {
    const parent = entry.parent === undefined ? program : parents.get(entry.parent) ?? parents.set(entry.parent, program.command(entry.parent).description(PARENTS[entry.parent])).get(entry.parent)!;
    const declared = parent.command(entry.usage).description(entry.description);
    // only the command that runs needs its options (half of `report`'s start-up was commander
    // building every command's); the help that lists commands (`[options]` marks) needs them all
    const cmd = command === null || command === 'help' || (entry.parent ?? entry.usage.split(' ')[0]) === command ? addOptions(declared, entry.options, named) : declared;
    // commander passes the arguments, then the flags, then the command
    cmd.action(async (...args: unknown[]) => {
      code = await entry.run(args.slice(0, -2), args.at(-2) as FlagsOf<OptionTable>, io);
    });
  }

  // what a killed bakeoff left (mounts, scratch folders, cgroups) is cleared by the next command of any kind; doctor lists it instead
  program.hook('preAction', async (_program, action) => {
    if (action.name() === 'doctor') return;
    // a command that serves sandboxes weighs like them from its start, not like one process of its terminal (decision 011)
    if (command !== null && SANDBOX_COMMANDS.has(command)) await weighThisProcess();
    const { sweepLeftovers } = await import('../api/sweep-leftovers.js');
    for (const note of (await sweepLeftovers()).notes) io.stderr.write(`bakeoff: ${escapeControl(note)}\n`);
  });

  const unhandle = io.handleSignals && command !== null && SANDBOX_COMMANDS.has(command) ? stopOnSignals(io.stderr, argv) : () => {};
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    return reportError(error, io, command);
  } finally {
    unhandle();
  }
}

function reportError(error: unknown, io: CliIo, command: string | null): number {
  // a stop (SIGINT, SIGTERM) is under way: what it cut short is not an error to report; the stop says what happened
  if (isStopping()) return EXIT.interrupted;
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  // messages can carry text from a run or a tool (file names, git's stderr): never raw to a terminal
  const text = (message: string): string => escapeControl(message, { keepNewlines: true });
  if (error instanceof UserError) {
    io.stderr.write(`bakeoff: ${text(error.message)}\n`);
    return EXIT.usage;
  }
  if (error instanceof InfraError) {
    io.stderr.write(`bakeoff: infrastructure error: ${text(error.message)}\n`);
    return EXIT.infra;
  }
  const explained = explainEnvironmentError(error, command);
  if (explained) {
    io.stderr.write(`bakeoff: ${text(explained)}\n`);
    return EXIT.infra;
  }
  io.stderr.write(`bakeoff: internal error — please report this with the command you ran:\n${text((error as Error)?.stack ?? String(error))}\n`);
  return EXIT.infra;
}
