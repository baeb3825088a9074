import { Command, CommanderError, Option } from 'commander';
import { InfraError, UserError } from '../errors.js';
import { escapeControl, isStopping } from '../util/index.js';
import { BAKEOFF_VERSION } from '../version.js';
import { explainEnvironmentError } from './explain-error.js';
import { stopOnSignals } from './stop-on-signals.js';
import { EXIT, OUTPUT_FORMATS, parsePort, parsePositiveInt, type CliIo } from './io.js';

const defaultIo = (): CliIo => ({ stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env, handleSignals: true });

/** The commands that run sandboxes: a signal stops them cleanly (model-server handles its own). */
const SANDBOX_COMMANDS = new Set(['run', 'validate', 'verify', 'publish']);

/**
 * Parses argv, runs one command, and maps every error to an exit code. The only catch. Each
 * command's module is loaded when it runs, so `--help` and a mistyped flag answer at once.
 */
export async function main(argv: readonly string[], io: CliIo = defaultIo()): Promise<number> {
  let code: number = EXIT.ok;
  const program = new Command('bakeoff')
    .description('Fair, replayable bake-offs of AI coding agents')
    .version(BAKEOFF_VERSION)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });

  program
    .command('validate <suite>')
    .description('run the admission checks, print the suite hash, write TASKS.md and bakeoff.lock.json (never over a lock of the same suite whose verdicts differ)')
    .option('--json', 'machine-readable output', false)
    .option('--concurrency <n>', 'tasks checked at once', parsePositiveInt, 2)
    .option('--update-lock', 'write the new verdicts even when they differ from the lock of the same suite', false)
    .option('--check', 'for CI: write nothing; exit 1 unless every task is admitted and the verdicts are the lock\'s', false)
    .option('--task <id>', 'validate this task only (repeatable); the other tasks keep their verdicts from the lock', collect, [])
    .option('--unsafe-no-sandbox', 'development only: run tests without the sandbox', false)
    .action(async (suite: string, flags) => {
      code = await (await import('./commands/validate.js')).validateCommand(suite, flags, io);
    });

  program
    .command('run <suite>')
    .description('run agents on every admitted task, grade, store; re-running resumes')
    .option('--agent <spec>', 'agent spec (repeatable): gold, noop, patch:<file.jsonl>, command:<shell command>, <harness>:<model>[@effort]', collect, [])
    .option('--agents <file>', 'agents file: named model agents with settings (YAML)')
    .option('--upstream <where>', 'model API for model agents: vendor, openrouter, a base URL, or scripted:<gold|500|429|hang|malformed|truncated|disconnect|file.json>', 'vendor')
    .option('--prices <file>', 'prices file (YAML/JSON) overriding the catalog\'s list prices')
    .option('--upstream-idle-timeout <seconds>', 'a model request with no byte for this long is a hang (void)', parsePositiveInt, 120)
    .option('--trace-network', 'run model agents under strace; every address they try other than the proxy is flagged on the run', false)
    .addOption(new Option('--patch-missing <what>', 'patch: agents on tasks their file does not name: skip them, or give them empty changes').choices(['skip', 'empty']).default('skip'))
    .option('--runs <n>', 'runs per task and agent (default: the suite\'s runsPerTask)', parsePositiveInt)
    .option('--out <dir>', 'results folder (default: results/<suite id>)')
    .option('--concurrency <n>', 'runs at once', parsePositiveInt, 2)
    .option('--json', 'no progress; print a JSON summary', false)
    .option('--wait', 'when another bakeoff is using the results folder, wait for it to finish instead of refusing', false)
    .option('--unsafe-no-sandbox', 'development only: run agents and tests without the sandbox (recorded in every run)', false)
    .option('--wide', 'print every column of the leaderboard at full width, even when it is wider than the terminal', false)
    .option('--no-color', 'no ANSI styling (also when $NO_COLOR is set)')
    .action(async (suite: string, flags) => {
      code = await (await import('./commands/run.js')).runCommand(suite, flags, io);
    });

  program
    .command('report <results>')
    .description('print the leaderboard of a results folder')
    .addOption(new Option('--format <format>', 'output format').choices(OUTPUT_FORMATS).default('table'))
    .option('--out <path>', 'write to a file instead of stdout')
    .option('--compare <agents...>', 'paired comparison of two agent ids (A B): wins, ties, void, exact McNemar p, paired difference')
    .option('--wide', 'print every column of the leaderboard at full width, even when it is wider than the terminal', false)
    .option('--no-color', 'no ANSI styling (also when $NO_COLOR is set)')
    .action(async (results: string, flags) => {
      code = await (await import('./commands/report.js')).reportCommand(results, flags, io);
    });

  program
    .command('verify <results>')
    .description('re-grade every stored change from scratch and re-hash every artifact; exit 1 on any mismatch')
    .option('--suite <dir>', 'the suite to re-grade with (default: the folder the runs were baked from)')
    .option('--json', 'machine-readable output', false)
    .option('--concurrency <n>', 'runs re-graded at once', parsePositiveInt, 2)
    .option('--wait', 'when another bakeoff is using the results folder, wait for it to finish instead of refusing', false)
    .option('--unsafe-no-sandbox', 'development only: run tests without the sandbox', false)
    .action(async (results: string, flags) => {
      code = await (await import('./commands/verify.js')).verifyCommand(results, flags, io);
    });

  program
    .command('publish <results>')
    .description('verify a results folder, then write its leaderboard as a static site (no network needed to view it)')
    .requiredOption('--out <dir>', 'folder to write the site to')
    .option('--private', 'add each run\'s change, agent output and test output (never publish this)', false)
    .option('--suite <dir>', 'the suite to re-grade with (default: the folder the runs were baked from)')
    .option('--concurrency <n>', 'runs re-graded at once', parsePositiveInt, 2)
    .option('--wait', 'when another bakeoff is using the results folder, wait for it to finish instead of refusing', false)
    .option('--unsafe-no-sandbox', 'development only: verify without the sandbox', false)
    .action(async (results: string, flags) => {
      code = await (await import('./commands/publish.js')).publishCommand(results, flags, io);
    });

  program
    .command('doctor')
    .description('check the sandbox and toolchains; say what to install')
    .option('--json', 'machine-readable output', false)
    .action(async (flags) => {
      code = await (await import('./commands/doctor.js')).doctorCommand(flags, io);
    });

  program
    .command('agents [action] [harnesses...]')
    .description('list agent specs and harnesses (installed versions, effort levels); `agents install [harness...]` installs the pinned CLIs')
    .option('--json', 'machine-readable output', false)
    .option('--wide', 'print every column at full width, even when it is wider than the terminal', false)
    .action(async (action: string | undefined, harnesses: string[], flags) => {
      code = await (await import('./commands/agents.js')).agentsCommand(action, harnesses, flags, io);
    });

  program
    .command('model-server')
    .description('the scripted model server (Anthropic, OpenAI Responses/Chat, Gemini wire formats) for dry runs without tokens')
    .option('--script <name>', 'gold, 500, 429, hang, malformed, truncated, disconnect, or a replay file (JSON)', 'gold')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on', parsePort, 8788)
    .option('--log <file.jsonl>', 'append every request (headers and body) to this file')
    .option('--session <file.json>', 'the change the gold script makes for every request: {workspace, edits: [{path, before, after}]}')
    .action(async (flags) => {
      code = await (await import('../model-server/index.js')).modelServerCommand(flags, io);
    });

  const command = argv[0] !== undefined && !argv[0].startsWith('-') ? argv[0] : null;
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

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
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
