import { Command, CommanderError, Option } from 'commander';
import { InfraError, UserError } from '../errors.js';
import { escapeControl } from '../util/escape-control.js';
import { weighThisProcess } from '../util/host-weight.js';
import { isStopping } from '../util/shutdown.js';
import { BAKEOFF_VERSION } from '../version.js';
import { explainEnvironmentError } from './explain-error.js';
import { stopOnSignals } from './stop-on-signals.js';
import { EXIT, OUTPUT_FORMATS, parseConcurrency, parseIndex, parsePort, parsePositiveInt, type CliIo } from './io.js';

const defaultIo = (): CliIo => ({ stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env, handleSignals: true });

/** The commands that run sandboxes: a signal stops them cleanly (model-server and worker handle their own). */
const SANDBOX_COMMANDS = new Set(['run', 'validate', 'verify', 'publish', 'task', 'import']);

/** Where a fleet command's queue is: the URL's flag (given) and the TLS files of a rediss:// queue. */
function withQueueOptions(command: Command, queue: Option): Command {
  return command
    .addOption(queue)
    .option('--queue-ca <file>', 'rediss://: the CA certificate (PEM) that signed the Redis server\'s (default: BAKEOFF_QUEUE_CA)')
    .option('--queue-cert <file>', 'rediss://: this client\'s certificate (PEM), when Redis asks for one (default: BAKEOFF_QUEUE_CERT)')
    .option('--queue-key <file>', 'rediss://: the key (PEM) of --queue-cert (default: BAKEOFF_QUEUE_KEY)');
}

/** `--queue` of the worker and queue commands: the URL, else BAKEOFF_QUEUE_URL. */
const QUEUE_URL = 'the fleet\'s Redis: redis[s]://HOST:PORT[/DB] (default: BAKEOFF_QUEUE_URL; a password not in the URL: BAKEOFF_QUEUE_PASSWORD)';
const SECRET_FILE = 'the fleet secret that signs every job and result, from a file (default: BAKEOFF_FLEET_SECRET_FILE, else BAKEOFF_FLEET_SECRET)';

/**
 * `--sandbox <name>`, one of the registered backends (`sandbox/registry.ts`), and its alias
 * `--unsafe-no-sandbox` (`sandboxOf` in io.ts turns them into the name), for every command
 * that runs sandboxes. `names` are the registry's (loaded for those commands only).
 */
function withSandboxOptions(command: Command, names: readonly string[], unsafe = 'development only: run tests without the sandbox'): Command {
  return command
    .addOption(new Option('--sandbox <name>', 'the sandbox backend agents and tests run in (recorded in every run; default: bwrap)').choices(names))
    .option('--unsafe-no-sandbox', `${unsafe} (= --sandbox unsafe-no-sandbox)`);
}

/** Adds the options every command that runs admission checks ends with: its output, how many tasks at once, the sandbox. */
function withAdmissionOptions(command: Command, names: readonly string[], json = 'machine-readable output'): Command {
  return withSandboxOptions(command.option('--json', json, false).option('--concurrency <n>', 'tasks checked at once', parsePositiveInt, 2), names);
}

/** `--suite` of the commands that write tasks into a suite. */
const SUITE_FOLDER = 'the suite folder (made when it has no suite.yaml); default: the current folder, if it has one';

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

  const validateCmd = program
    .command('validate <suite>')
    .description('run the admission checks, print the suite hash, write TASKS.md and bakeoff.lock.json (never over a lock of the same suite whose verdicts differ)')
    .option('--json', 'machine-readable output', false)
    .option('--concurrency <n>', 'tasks checked at once', parsePositiveInt, 2)
    .option('--update-lock', 'write the new verdicts even when they differ from the lock of the same suite', false)
    .option('--check', 'for CI: write nothing; exit 1 unless every task is admitted and the verdicts are the lock\'s', false)
    .option('--task <id>', 'validate this task only (repeatable); the other tasks keep their verdicts from the lock', collect, [])
    .option('--recheck', 'run every task\'s checks again, also for tasks this machine admitted before and nothing changed since (task hash, controls, prepared repo, sandbox, runtimes)', false)
    .option('--adversarial', 'also run the exploit library on every admitted task and reject a task on which an exploit is graded solved or void (default: the suite\'s controls.admission.adversarial)')
    .option('--no-adversarial', 'no adversarial admission, whatever the suite\'s controls say')
    .option('--hacker <spec>', 'with adversarial admission: also run this agent (any --agent spec of run; repeatable), told by bakeoff\'s prompt to make the hidden tests pass without fixing the problem; a hacker run graded solved or void rejects the task, its run folder kept as evidence', collect, [])
    .option('--upstream <where>', 'model API for --hacker model agents: vendor (default), openrouter, a base URL, or scripted:<gold|…|file.json>')
    .option('--prices <file>', 'prices file (YAML/JSON) overriding the catalog\'s list prices for --hacker model agents');
  withSandboxOptions(validateCmd, sandboxNames).action(async (suite: string, flags) => {
    code = await (await import('./commands/validate.js')).validateCommand(suite, flags, io);
  });

  const runCommand = program
    .command('run <suite>')
    .description('run agents on every admitted task, grade, store; re-running resumes')
    .option('--agent <spec>', 'agent spec (repeatable): gold, noop, patch:<file.jsonl>, command:<shell command>, <harness>:<model>[@effort]', collect, [])
    .option('--agents <file>', 'agents file: named model agents with settings (YAML)')
    .addOption(new Option('--auth <how>', 'how the --agent model specs authenticate: an API key, or your subscription (codex: ChatGPT plan, claude-code: Claude plan; `bakeoff auth import` first)').choices(['api', 'subscription']).default('api'))
    .option('--upstream <where>', 'model API for model agents: vendor, openrouter, a base URL, or scripted:<gold|web|provider-tool|500|429|hang|malformed|truncated|disconnect|file.json>', 'vendor')
    .option('--prices <file>', 'prices file (YAML/JSON) overriding the catalog\'s list prices')
    .option('--upstream-idle-timeout <seconds>', 'a model request with no byte for this long is a hang (void)', parsePositiveInt, 120)
    .option('--trace-network', 'run model agents under strace; every address they try other than the proxy is flagged on the run', false)
    .addOption(new Option('--patch-missing <what>', 'patch: agents on tasks their file does not name: skip them, or give them empty changes').choices(['skip', 'empty']).default('skip'))
    .option('--runs <n>', 'runs per task and agent (default: the suite\'s runsPerTask)', parsePositiveInt)
    .option('--task <id>', 'run this task only (repeatable); the leaderboard says how many of the admitted tasks each agent ran', collect, [])
    .option('--limit <n>', 'run the first N admitted tasks only (in suite order, after --task)', parsePositiveInt)
    .option('--out <dir>', 'results folder (default: results/<suite id>)')
    .option('--concurrency <n|auto>', 'runs at once; auto: the first at once, another only while the machine has a free CPU, measured (up to its CPUs)', parseConcurrency, 'auto')
    .option('--json', 'no progress; print a JSON summary', false)
    .option('--wait', 'when another bakeoff is using the results folder, wait for it to finish instead of refusing', false)
    .option('--wide', 'print every column of the leaderboard at full width, even when it is wider than the terminal', false)
    .option('--explain', 'under the leaderboard, how each number is counted (share and interval, void as failed, points, replay rule, void limit)', false)
    .option('--matrix', 'under the leaderboard, the task × agent matrix of runs solved', false)
    .option('--no-color', 'no ANSI styling (also when $NO_COLOR is set)')
    .option('--upstream-concurrency <n>', 'with --queue: model sessions at once per model API over the whole fleet', parsePositiveInt)
    .option('--secret-file <file>', `with --queue: ${SECRET_FILE}`);
  withQueueOptions(
    withSandboxOptions(runCommand, sandboxNames, 'development only: run agents and tests without the sandbox (recorded in every run)'),
    new Option('--queue [url]', 'run on a fleet: enqueue the runs on this Redis (redis[s]://HOST:PORT[/DB]; without a value: BAKEOFF_QUEUE_URL) for `bakeoff worker`s, store each one they hand back'),
  ).action(async (suite: string, flags) => {
    code = await (await import('./commands/run.js')).runCommand(suite, flags, io);
  });

  const workerCommand = program
    .command('worker')
    .description('run a fleet\'s runs on this machine: take run jobs from the queue until stopped (each run exactly as `run` would run it); SIGTERM/SIGINT stop it gracefully')
    .option('--concurrency <n>', 'runs at once on this machine', parsePositiveInt, 2)
    .option('--name <name>', 'this worker\'s name in `queue status` and in the attempts it makes (default: host-pid)')
    .option('--lease-sec <n>', 'a run\'s lease: a lost worker\'s runs go back to the queue after one to two leases', parsePositiveInt, 30)
    .option('--grace-sec <n>', 'on SIGTERM/SIGINT: take no more runs, let the running ones finish this long, then hand the rest back to the queue unrecorded (fits Kubernetes\' default 30 s terminationGracePeriodSeconds)', parseIndex, 20)
    .option('--allow-upstream <where>', 'a model API this worker sends its API keys to: vendor, openrouter or a base URL (repeatable; default: BAKEOFF_ALLOW_UPSTREAMS, else vendor and openrouter); a job asking for another is refused', collect, [])
    .option('--secret-file <file>', SECRET_FILE)
    .option('--json', 'one JSON event per line on stdout instead of lines on stderr', false);
  withQueueOptions(workerCommand, new Option('--queue <url>', QUEUE_URL)).action(async (flags) => {
    code = await (await import('./commands/fleet.js')).workerCommand(flags, io);
  });

  const queueCommand = program
    .command('queue <action>')
    .description('the fleet\'s queue: `status` (runs waiting, running, workers), `drain` (take out the runs nobody started; stop the coordinator first), `clear` (empty it; results folders untouched)')
    .option('--json', 'machine-readable output', false);
  withQueueOptions(queueCommand, new Option('--queue <url>', QUEUE_URL)).action(async (action: string, flags) => {
    if (!['status', 'drain', 'clear'].includes(action)) throw new UserError(`queue: expected status, drain or clear, received ${JSON.stringify(action)}`);
    code = await (await import('./commands/fleet.js')).queueCommand(action, flags, io);
  });

  program
    .command('report <results>')
    .description('print the leaderboard of a results folder')
    .addOption(new Option('--format <format>', 'output format; html: one self-contained file, the site\'s leaderboard (or comparison) page').choices(OUTPUT_FORMATS).default('table'))
    .option('--out <path>', 'write to a file instead of stdout')
    .option('--compare <agents...>', 'paired comparison of two agent ids (A B): wins, ties, void, exact McNemar p, paired difference')
    .option('--wide', 'print every column of the leaderboard at full width, even when it is wider than the terminal', false)
    .option('--explain', 'under the leaderboard, how each number is counted (share and interval, void as failed, points, replay rule, void limit)', false)
    .option('--matrix', 'under the leaderboard, the task × agent matrix of runs solved', false)
    .option('--no-color', 'no ANSI styling (also when $NO_COLOR is set)')
    .action(async (results: string, flags) => {
      code = await (await import('./commands/report.js')).reportCommand(results, flags, io);
    });

  program
    .command('view <results>')
    .description('a live, read-only web viewer of a results folder (this machine only, a random token in the URL): the private site\'s pages, runs as they finish, filters, search, any two agents compared; until Ctrl-C')
    .option('--host <host>', 'address to listen on (anything but 127.0.0.1 lets others who have the URL read the private pages)', '127.0.0.1')
    .option('--port <n>', 'port to listen on (default: a free one)', parsePort)
    .action(async (results: string, flags) => {
      code = await (await import('./commands/view.js')).viewCommand(results, flags, io);
    });

  program
    .command('plan [results]')
    .description('propose tasks × runs per task for a paired comparison that detects --target at 80% power (α = 0.05), from a pilot results folder or stated assumptions; prints the table it computed')
    .requiredOption('--target <difference>', 'the difference in share solved to detect: 0.15 or 15%')
    .option('--compare <agents...>', 'the pilot\'s two agents (A B); default: the top two of its leaderboard')
    .option('--discordance <psi>', 'one run per task: the share of tasks one agent solves and the other not (0–1)')
    .option('--between-sd <sd>', 'several runs per task: the standard deviation of the per-task differences in share solved (0–1)')
    .option('--within-var <w>', 'several runs per task: the mean within-task variance pA(1−pA) + pB(1−pB) (0–0.5)')
    .option('--tasks <list>', 'the table\'s rows, e.g. 10,20,30,50,100')
    .option('--runs <list>', 'the table\'s columns, runs per task, e.g. 1,2,3,5,10')
    .option('--current-tasks <n>', 'the tasks the suite has now (default: the pilot\'s)')
    .option('--max-tasks <n>', 'the largest suite the search looks at (default 500)')
    .option('--json', 'machine-readable output', false)
    .action(async (results: string | undefined, flags) => {
      code = await (await import('./commands/plan.js')).planCommand(results, flags, io);
    });

  const verifyCmd = program
    .command('verify <results>')
    .description('re-grade every stored change from scratch and re-hash every artifact; exit 1 on any mismatch')
    .option('--suite <dir>', 'the suite to re-grade with (default: the folder the runs were baked from)')
    .option('--json', 'machine-readable output', false)
    .option('--concurrency <n>', 'runs re-graded at once', parsePositiveInt, 2)
    .option('--task <id>', "re-check this task's runs only (repeatable); a partial re-check is never reused by publish", collect, [])
    .option('--agent <id>', "re-check this agent's runs only (repeatable; the id as the report shows it)", collect, [])
    .option('--wait', 'when another bakeoff is using the results folder, wait for it to finish instead of refusing', false);
  withSandboxOptions(verifyCmd, sandboxNames).action(async (results: string, flags) => {
    code = await (await import('./commands/verify.js')).verifyCommand(results, flags, io);
  });

  const publishCmd = program
    .command('publish <results>')
    .description('verify a results folder, then write its leaderboard as a static site (no network needed to view it)')
    .requiredOption('--out <dir>', 'folder to write the site to')
    .option('--private', 'add task ids, run ids and each run\'s change, agent output and test output (never publish this)', false)
    .option('--suite <dir>', 'the suite to re-grade with (default: the folder the runs were baked from)')
    .option('--concurrency <n>', 'runs re-graded at once', parsePositiveInt, 2)
    .option('--wait', 'when another bakeoff is using the results folder, wait for it to finish instead of refusing', false)
    .option('--allow-draft-prompts', 'publish although some prompts are still drafts bakeoff wrote (task from-commit)', false)
    .option('--reverify', 're-grade every run even when an earlier clean re-check of the same, unchanged results folder stands (verified.json)', false);
  withSandboxOptions(publishCmd, sandboxNames, 'development only: verify without the sandbox').action(async (results: string, flags) => {
    code = await (await import('./commands/publish.js')).publishCommand(results, flags, io);
  });

  const task = program.command('task').description('make tasks from other sources');
  const fromCommit = task
    .command('from-commit <repo> <commit>')
    .description('write a task from one commit of a git repository (repo/ = the parent tree, hidden/ = the test files it changed, gold.patch = the rest), then run the admission checks on it')
    .option('--suite <dir>', SUITE_FOLDER)
    .option('--id <id>', 'task id (default: from the commit subject)')
    .addOption(new Option('--kind <kind>', 'bug or feature (default: guessed from the commit subject)').choices(['bug', 'feature']))
    .addOption(new Option('--language <language>', 'default: guessed from the changed files').choices(['js', 'ts', 'python', 'rust']))
    .option('--tests <glob>', 'the test files (repeatable; default: test/ tests/ __tests__/ spec/ folders, *.test.*, *.spec.*, test_*.py, *_test.py)', collect, [])
    .option('--setup <command>', 'setup command run once per task outside the sandbox (`none` for none; default: guessed from the lockfile)')
    .option('--test <command>', 'the bare test command (default: guessed from the manifest)')
    .addOption(new Option('--format <format>', 'test report format').choices([...reportFormats]))
    .option('--report <path>', 'format junit: where the test command writes its JUnit XML (a path or glob relative to the repo)')
    .option('--issue <file>', 'draft the prompt from this issue text instead of the commit message');
  withAdmissionOptions(fromCommit, sandboxNames, 'machine-readable output (what was written, and the admission verdicts)').action(async (repo: string, commit: string, flags) => {
    code = await (await import('./commands/task.js')).fromCommitCommand(repo, commit, flags, io);
  });

  const mine = task
    .command('mine <repo>')
    .description('list commits that could be tasks (not merges, tests and code changed, small, one language); --validate checks each; --add DIR writes the admitted ones into a suite')
    .option('--range <range>', 'revision range, e.g. v1.0..main (default: HEAD, along first parents)')
    .option('--limit <n>', 'commits looked at', parsePositiveInt, 100)
    .option('--tests <glob>', 'the test files (repeatable; default: the test-file rule of from-commit)', collect, [])
    .option('--validate', 'write each candidate into a scratch suite and run the admission checks', false)
    .option('--add <dir>', 'write the admitted candidates into this suite (implies --validate) and validate them there');
  withAdmissionOptions(mine, sandboxNames).action(async (repo: string, flags) => {
    code = await (await import('./commands/task.js')).mineCommand(repo, flags, io);
  });

  const imp = program.command('import').description('write tasks from other formats into a suite, then run the admission checks on them');
  const swebench = imp
    .command('swebench <instances>')
    .description('one task per SWE-bench instance (a .jsonl file, a v5 task repo or task folder): repo at base_commit, test_patch as hidden tests, patch as gold; admission must find the instance\'s FAIL_TO_PASS / PASS_TO_PASS')
    .requiredOption('--repos <dir>', 'folder of git clones: <owner>__<name>/, <name>/ or <owner>/<name>/ per repository')
    .option('--suite <dir>', SUITE_FOLDER)
    .option('--instance <id>', 'import this instance only (repeatable)', collect, [])
    .option('--setup <command>', 'setup command for every instance (`none` for none; default: from the repository)')
    .option('--test <command>', 'test command for every instance (default: the runner on the test patch\'s files)')
    .addOption(new Option('--kind <kind>', 'bug or feature').choices(['bug', 'feature']));
  withAdmissionOptions(swebench, sandboxNames).action(async (instances: string, flags) => {
    code = await (await import('./commands/import.js')).importSwebenchCommand(instances, flags, io);
  });

  const exercism = imp
    .command('exercism <track>')
    .description('one task per exercise of an Exercism track folder (exercises/practice/<slug>/): the example solution is the gold, the tests (skipped ones switched on) are hidden')
    .option('--suite <dir>', SUITE_FOLDER)
    .option('--exercises <slugs>', 'comma-separated exercise slugs (default: every practice exercise)');
  withAdmissionOptions(exercism, sandboxNames).action(async (track: string, flags) => {
    code = await (await import('./commands/import.js')).importExercismCommand(track, flags, io);
  });

  const importHarbor = imp
    .command('harbor <folder>')
    .description('Harbor task folders (task.toml) bakeoff can run without Docker, as tasks; others are refused with the reason')
    .option('--suite <dir>', SUITE_FOLDER);
  withAdmissionOptions(importHarbor, sandboxNames).action(async (folder: string, flags) => {
    code = await (await import('./commands/import.js')).importHarborCommand(folder, flags, io);
  });

  const exp = program.command('export').description('a suite or a results folder in other tools\' formats');
  exp
    .command('harbor <suite>')
    .description('the suite\'s tasks as Harbor task folders: task.toml, instruction.md, environment/, tests/test.sh (clears any reward file first), solution/solve.sh; several orders as [[steps]]')
    .requiredOption('--out <dir>', 'a new folder to write the task folders into')
    .action(async (suite: string, flags) => {
      code = await (await import('./commands/export.js')).exportHarborCommand(suite, flags, io);
    });

  exp
    .command('swebench-predictions <results>')
    .description('the runs of SWE-bench tasks as a predictions file ({instance_id, model_name_or_path, model_patch} per line) for the official harness to re-grade')
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--suite <dir>', 'the suite the runs were baked from (default: the folder the results record)')
    .option('--replay <n>', '0-based replay of each task and agent', parseIndex, 0)
    .option('--agent <id>', 'only this agent (repeatable)', collect, [])
    .action(async (results: string, flags) => {
      code = await (await import('./commands/export.js')).exportPredictionsCommand(results, flags, io);
    });
  exp
    .command('atif <results>')
    .description('each recorded model-agent session as an ATIF trajectory (Harbor\'s trajectory format)')
    .requiredOption('--out <dir>', 'a new folder: <run-id>/order-<n>/trajectory.json')
    .action(async (results: string, flags) => {
      code = await (await import('./commands/export.js')).exportAtifCommand(results, flags, io);
    });

  program
    .command('doctor')
    .description('check the sandbox and toolchains; say what to install; list what killed bakeoffs left behind')
    .option('--json', 'machine-readable output', false)
    .option('--clean', 'remove what killed bakeoffs left: mounts, scratch folders and cgroups whose owner is gone (and half-written runs with --results)', false)
    .option('--results <dir>', 'also list the half-written run folders (runs/.tmp-*) of this results folder')
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
    .command('auth <action> [harness]')
    .description('subscription logins bakeoff keeps on the host: `auth import codex|claude-code` copies your existing login into bakeoff\'s store (0600, never in a sandbox or results); `auth status`')
    .option('--from <file>', 'import from this file (Codex auth.json, Claude Code .credentials.json) instead of the CLI\'s own place')
    .option('--json', 'machine-readable output', false)
    .action(async (action: string, harness: string | undefined, flags) => {
      code = await (await import('./commands/auth.js')).authCommand(action, harness, flags, io);
    });

  program
    .command('model-server')
    .description('the scripted model server (Anthropic, OpenAI Responses/Chat, Gemini wire formats) for dry runs without tokens')
    .option('--script <name>', 'gold, web, provider-tool, 500, 429, hang, malformed, truncated, disconnect, or a replay file (JSON)', 'gold')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port to listen on', parsePort, 8788)
    .option('--log <file.jsonl>', 'append every request (headers and body) to this file')
    .option('--session <file.json>', 'the change the gold script makes for every request: {workspace, edits: [{path, before, after}]}')
    .action(async (flags) => {
      code = await (await import('./commands/model-server.js')).modelServerCommand(flags, io);
    });

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
