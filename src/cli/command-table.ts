import { UserError } from '../errors.js';
import * as O from './command-options.js';
import type { CliIo } from './io.js';
import type { FlagsOf, OptionTable } from './option-table.js';

/**
 * One command of the CLI: its usage and help, its options (command-options.ts), and how it runs
 * — the command's module is loaded only then, so `--help` and a mistyped flag answer at once.
 */
export interface CommandEntry<T extends OptionTable = OptionTable> {
  /** commander's name and arguments (`verify <results>`). */
  readonly usage: string;
  /** The group it is a subcommand of (`task from-commit`). */
  readonly parent?: keyof typeof PARENTS;
  readonly description: string;
  readonly options: T;
  /** commander's positional arguments (a variadic one as an array), the flags, the io. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- commander's arguments are the usage's
  readonly run: (args: readonly any[], flags: FlagsOf<T>, io: CliIo) => Promise<number>;
}

/** Keeps each entry's `run` typed by its own table. */
function entry<T extends OptionTable>(e: CommandEntry<T>): CommandEntry {
  return e as unknown as CommandEntry;
}

/** The groups of subcommands, with their help. */
export const PARENTS = {
  task: 'make tasks from other sources',
  import: 'write tasks from other formats into a suite, then run the admission checks on them',
  export: 'a suite or a results folder in other tools\' formats',
} as const;

/** Every command, in the order `bakeoff --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  entry({
    usage: 'validate <suite>',
    description: 'run the admission checks, print the suite hash, write TASKS.md and bakeoff.lock.json (never over a lock of the same suite whose verdicts differ)',
    options: O.VALIDATE_OPTIONS,
    run: async ([suite], flags, io) => (await import('./commands/validate.js')).validateCommand(suite, flags, io),
  }),
  entry({
    usage: 'run <suite>',
    description: 'run agents on every admitted task, grade, store; re-running resumes',
    options: O.RUN_OPTIONS,
    run: async ([suite], flags, io) => (await import('./commands/run.js')).runCommand(suite, flags, io),
  }),
  entry({
    usage: 'worker',
    description: 'run a fleet\'s runs on this machine: take run jobs from the queue until stopped (each run exactly as `run` would run it); SIGTERM/SIGINT stop it gracefully',
    options: O.WORKER_OPTIONS,
    run: async (_args, flags, io) => (await import('./commands/fleet.js')).workerCommand(flags, io),
  }),
  entry({
    usage: 'queue <action>',
    description: 'the fleet\'s queue: `status` (runs waiting, running, workers), `drain` (take out the runs nobody started; stop the coordinator first), `clear` (empty it; results folders untouched)',
    options: O.QUEUE_OPTIONS,
    run: async ([action], flags, io) => {
      if (!['status', 'drain', 'clear'].includes(action)) throw new UserError(`queue: expected status, drain or clear, received ${JSON.stringify(action)}`);
      return (await import('./commands/fleet.js')).queueCommand(action, flags, io);
    },
  }),
  entry({
    usage: 'report <results>',
    description: 'print the leaderboard of a results folder',
    options: O.REPORT_OPTIONS,
    run: async ([results], flags, io) => (await import('./commands/report.js')).reportCommand(results, flags, io),
  }),
  entry({
    usage: 'view <results>',
    description: 'a live, read-only web viewer of a results folder (this machine only, a random token in the URL): the private site\'s pages, runs as they finish, filters, search, any two agents compared; until Ctrl-C',
    options: O.VIEW_OPTIONS,
    run: async ([results], flags, io) => (await import('./commands/view.js')).viewCommand(results, flags, io),
  }),
  entry({
    usage: 'plan [results]',
    description: 'propose tasks × runs per task for a paired comparison that detects --target at 80% power (α = 0.05), from a pilot results folder or stated assumptions; prints the table it computed',
    options: O.PLAN_OPTIONS,
    run: async ([results], flags, io) => (await import('./commands/plan.js')).planCommand(results, flags, io),
  }),
  entry({
    usage: 'verify <results>',
    description: 're-grade every stored change from scratch and re-hash every artifact; exit 1 on any mismatch',
    options: O.VERIFY_OPTIONS,
    run: async ([results], flags, io) => (await import('./commands/verify.js')).verifyCommand(results, flags, io),
  }),
  entry({
    usage: 'publish <results>',
    description: 'verify a results folder, then write its leaderboard as a static site (no network needed to view it)',
    options: O.PUBLISH_OPTIONS,
    run: async ([results], flags, io) => (await import('./commands/publish.js')).publishCommand(results, flags, io),
  }),
  entry({
    parent: 'task',
    usage: 'from-commit <repo> <commit>',
    description: 'write a task from one commit of a git repository (repo/ = the parent tree, hidden/ = the test files it changed, gold.patch = the rest), then run the admission checks on it',
    options: O.FROM_COMMIT_OPTIONS,
    run: async ([repo, commit], flags, io) => (await import('./commands/task.js')).fromCommitCommand(repo, commit, flags, io),
  }),
  entry({
    parent: 'task',
    usage: 'mine <repo>',
    description: 'list commits that could be tasks (not merges, tests and code changed, small, one language); --validate checks each; --add DIR writes the admitted ones into a suite',
    options: O.MINE_OPTIONS,
    run: async ([repo], flags, io) => (await import('./commands/task.js')).mineCommand(repo, flags, io),
  }),
  entry({
    parent: 'import',
    usage: 'swebench <instances>',
    description: 'one task per SWE-bench instance (a .jsonl file, a v5 task repo or task folder): repo at base_commit, test_patch as hidden tests, patch as gold; admission must find the instance\'s FAIL_TO_PASS / PASS_TO_PASS',
    options: O.IMPORT_SWEBENCH_OPTIONS,
    run: async ([instances], flags, io) => (await import('./commands/import.js')).importSwebenchCommand(instances, flags, io),
  }),
  entry({
    parent: 'import',
    usage: 'exercism <track>',
    description: 'one task per exercise of an Exercism track folder (exercises/practice/<slug>/): the example solution is the gold, the tests (skipped ones switched on) are hidden',
    options: O.IMPORT_EXERCISM_OPTIONS,
    run: async ([track], flags, io) => (await import('./commands/import.js')).importExercismCommand(track, flags, io),
  }),
  entry({
    parent: 'import',
    usage: 'harbor <folder>',
    description: 'Harbor task folders (task.toml) bakeoff can run without Docker, as tasks; others are refused with the reason',
    options: O.IMPORT_HARBOR_OPTIONS,
    run: async ([folder], flags, io) => (await import('./commands/import.js')).importHarborCommand(folder, flags, io),
  }),
  entry({
    parent: 'export',
    usage: 'harbor <suite>',
    description: 'the suite\'s tasks as Harbor task folders: task.toml, instruction.md, environment/, tests/test.sh (clears any reward file first), solution/solve.sh; several orders as [[steps]]',
    options: O.EXPORT_HARBOR_OPTIONS,
    run: async ([suite], flags, io) => (await import('./commands/export.js')).exportHarborCommand(suite, flags, io),
  }),
  entry({
    parent: 'export',
    usage: 'swebench-predictions <results>',
    description: 'the runs of SWE-bench tasks as a predictions file ({instance_id, model_name_or_path, model_patch} per line) for the official harness to re-grade',
    options: O.EXPORT_PREDICTIONS_OPTIONS,
    run: async ([results], flags, io) => (await import('./commands/export.js')).exportPredictionsCommand(results, flags, io),
  }),
  entry({
    parent: 'export',
    usage: 'atif <results>',
    description: 'each recorded model-agent session as an ATIF trajectory (Harbor\'s trajectory format)',
    options: O.EXPORT_ATIF_OPTIONS,
    run: async ([results], flags, io) => (await import('./commands/export.js')).exportAtifCommand(results, flags, io),
  }),
  entry({
    usage: 'doctor',
    description: 'check the sandbox and toolchains; say what to install; list what killed bakeoffs left behind',
    options: O.DOCTOR_OPTIONS,
    run: async (_args, flags, io) => (await import('./commands/doctor.js')).doctorCommand(flags, io),
  }),
  entry({
    usage: 'agents [action] [harnesses...]',
    description: 'list agent specs and harnesses (installed versions, effort levels); `agents install [harness...]` installs the pinned CLIs',
    options: O.AGENTS_OPTIONS,
    run: async ([action, harnesses], flags, io) => (await import('./commands/agents.js')).agentsCommand(action, harnesses, flags, io),
  }),
  entry({
    usage: 'auth <action> [harness]',
    description: 'subscription logins bakeoff keeps on the host: `auth import codex|claude-code` copies your existing login into bakeoff\'s store (0600, never in a sandbox or results); `auth status`',
    options: O.AUTH_OPTIONS,
    run: async ([action, harness], flags, io) => (await import('./commands/auth.js')).authCommand(action, harness, flags, io),
  }),
  entry({
    usage: 'model-server',
    description: 'the scripted model server (Anthropic, OpenAI Responses/Chat, Gemini wire formats) for dry runs without tokens',
    options: O.MODEL_SERVER_OPTIONS,
    run: async (_args, flags, io) => (await import('./commands/model-server.js')).modelServerCommand(flags, io),
  }),
];
