import type { ReportFormat } from '../api/index.js';
import { OUTPUT_FORMATS, parseConcurrency, parseIndex, parsePort, parsePositiveInt } from './io.js';
import {
  bool, choice, choiceOr, list, maybeBool, negated, negationOf, optionalValue, parsed, parsedOr, requiredText, text, textOr, words,
  type FlagsOf,
} from './option-table.js';

/*
 * Every command's options, declared once (option-table.ts): main.ts adds them to commander in
 * this order (the order `--help` lists them), and each command's flags are typed from its table.
 */

const JSON_OUTPUT = bool('--json', 'machine-readable output');
const WAIT = bool('--wait', 'when another bakeoff is using the results folder, wait for it to finish instead of refusing');
const SUITE_FOLDER = text('--suite <dir>', 'the suite folder (made when it has no suite.yaml); default: the current folder, if it has one');
const REGRADE_SUITE = text('--suite <dir>', 'the suite to re-grade with (default: the folder the runs were baked from)', { request: 'suite' });
const SECRET_FILE = 'the fleet secret that signs every job and result, from a file (default: BAKEOFF_FLEET_SECRET_FILE, else BAKEOFF_FLEET_SECRET)';
const QUEUE_URL = 'the fleet\'s Redis: redis[s]://HOST:PORT[/DB] (default: BAKEOFF_QUEUE_URL; a password not in the URL: BAKEOFF_QUEUE_PASSWORD)';

/** `--sandbox <name>` (a registered backend) and its alias `--unsafe-no-sandbox` (`sandboxOf` in io.ts), for every command that runs sandboxes. */
function sandboxOptions(unsafe = 'development only: run tests without the sandbox') {
  return {
    sandbox: choice('--sandbox <name>', 'the sandbox backend agents and tests run in (recorded in every run; default: bwrap)', 'sandboxes'),
    unsafeNoSandbox: maybeBool('--unsafe-no-sandbox', `${unsafe} (= --sandbox unsafe-no-sandbox)`),
  } as const;
}

/** What every command that runs admission checks ends with: its output, how many tasks at once, the sandbox. */
function admissionOptions(json = 'machine-readable output') {
  return {
    json: bool('--json', json),
    concurrency: parsedOr('--concurrency <n>', 'tasks checked at once', parsePositiveInt, 2),
    ...sandboxOptions(),
  } as const;
}

/** Where a fleet command's queue is: the URL's flag (given) and the TLS files of a rediss:// queue. */
const QUEUE_TLS = {
  queueCa: text('--queue-ca <file>', 'rediss://: the CA certificate (PEM) that signed the Redis server\'s (default: BAKEOFF_QUEUE_CA)', { request: 'queueCa' }),
  queueCert: text('--queue-cert <file>', 'rediss://: this client\'s certificate (PEM), when Redis asks for one (default: BAKEOFF_QUEUE_CERT)', { request: 'queueCert' }),
  queueKey: text('--queue-key <file>', 'rediss://: the key (PEM) of --queue-cert (default: BAKEOFF_QUEUE_KEY)', { request: 'queueKey' }),
} as const;

/** The leaderboard's own switches, for the commands that print one. */
const TABLE = {
  wide: bool('--wide', 'print every column of the leaderboard at full width, even when it is wider than the terminal'),
  explain: bool('--explain', 'under the leaderboard, how each number is counted (share and interval, void as failed, points, replay rule, void limit)'),
  matrix: bool('--matrix', 'under the leaderboard, the task × agent matrix of runs solved'),
  color: negated('--no-color', 'no ANSI styling (also when $NO_COLOR is set)'),
} as const;

export const VALIDATE_OPTIONS = {
  json: JSON_OUTPUT,
  concurrency: parsedOr('--concurrency <n>', 'tasks checked at once', parsePositiveInt, 2, { request: 'concurrency' }),
  updateLock: bool('--update-lock', 'write the new verdicts even when they differ from the lock of the same suite'),
  check: bool('--check', 'for CI: write nothing; exit 1 unless every task is admitted and the verdicts are the lock\'s'),
  task: list('--task <id>', 'validate this task only (repeatable); the other tasks keep their verdicts from the lock', { request: 'tasks' }),
  recheck: bool('--recheck', 'run every task\'s checks again, also for tasks this machine admitted before and nothing changed since (task hash, controls, prepared repo, sandbox, runtimes)', { request: 'recheck' }),
  adversarial: maybeBool('--adversarial', 'also run the exploit library on every admitted task and reject a task on which an exploit is graded solved or void (default: the suite\'s controls.admission.adversarial)', { request: 'adversarial' }),
  noAdversarial: negationOf('--no-adversarial', 'no adversarial admission, whatever the suite\'s controls say'),
  hacker: list('--hacker <spec>', 'with adversarial admission: also run this agent (any --agent spec of run; repeatable), told by bakeoff\'s prompt to make the hidden tests pass without fixing the problem; a hacker run graded solved or void rejects the task, its run folder kept as evidence', { request: 'hackers' }),
  upstream: text('--upstream <where>', 'model API for --hacker model agents: vendor (default), openrouter, a base URL, or scripted:<gold|…|file.json>', { request: 'upstream' }),
  prices: text('--prices <file>', 'prices file (YAML/JSON) overriding the catalog\'s list prices for --hacker model agents', { request: 'prices' }),
  ...sandboxOptions(),
} as const;

export const RUN_OPTIONS = {
  agent: list('--agent <spec>', 'agent spec (repeatable): gold, noop, patch:<file.jsonl>, command:<shell command>, <harness>:<model>[@effort]'),
  agents: text('--agents <file>', 'agents file: named model agents with settings (YAML)', { request: 'agentsFile' }),
  auth: choiceOr('--auth <how>', 'how the --agent model specs authenticate: an API key, or your subscription (codex: ChatGPT plan, claude-code: Claude plan; `bakeoff auth import` first)', ['api', 'subscription'], 'api'),
  upstream: textOr('--upstream <where>', 'model API for model agents: vendor, openrouter, a base URL, or scripted:<gold|web|provider-tool|500|429|hang|malformed|truncated|disconnect|file.json>', 'vendor', { request: 'upstream' }),
  prices: text('--prices <file>', 'prices file (YAML/JSON) overriding the catalog\'s list prices', { request: 'prices' }),
  upstreamIdleTimeout: parsedOr('--upstream-idle-timeout <seconds>', 'a model request with no byte for this long is a hang (void)', parsePositiveInt, 120, { request: 'upstreamIdleTimeoutSec' }),
  traceNetwork: bool('--trace-network', 'run model agents under strace; every address they try other than the proxy is flagged on the run', { request: 'traceNetwork' }),
  patchMissing: choiceOr('--patch-missing <what>', 'patch: agents on tasks their file does not name: skip them, or give them empty changes', ['skip', 'empty'], 'skip', { request: 'patchMissing' }),
  runs: parsed('--runs <n>', 'runs per task and agent (default: the suite\'s runsPerTask)', parsePositiveInt, { request: 'runs' }),
  task: list('--task <id>', 'run this task only (repeatable); the leaderboard says how many of the admitted tasks each agent ran', { request: 'tasks' }),
  limit: parsed('--limit <n>', 'run the first N admitted tasks only (in suite order, after --task)', parsePositiveInt, { request: 'limit' }),
  out: text('--out <dir>', 'results folder (default: results/<suite id>)', { request: 'out' }),
  concurrency: parsedOr('--concurrency <n|auto>', 'runs at once; auto: the first at once, another only while the machine has a free CPU, measured (up to its CPUs)', parseConcurrency, 'auto' as number | 'auto'),
  json: bool('--json', 'no progress; print a JSON summary'),
  wait: WAIT,
  ...TABLE,
  upstreamConcurrency: parsed('--upstream-concurrency <n>', 'with --queue: model sessions at once per model API over the whole fleet', parsePositiveInt, { request: 'upstreamConcurrency' }),
  secretFile: text('--secret-file <file>', `with --queue: ${SECRET_FILE}`, { request: 'secretFile' }),
  ...sandboxOptions('development only: run agents and tests without the sandbox (recorded in every run)'),
  queue: optionalValue('--queue [url]', 'run on a fleet: enqueue the runs on this Redis (redis[s]://HOST:PORT[/DB]; without a value: BAKEOFF_QUEUE_URL) for `bakeoff worker`s, store each one they hand back', { request: 'queue' }),
  ...QUEUE_TLS,
} as const;

export const WORKER_OPTIONS = {
  concurrency: parsedOr('--concurrency <n>', 'runs at once on this machine', parsePositiveInt, 2, { request: 'concurrency' }),
  name: text('--name <name>', 'this worker\'s name in `queue status` and in the attempts it makes (default: host-pid)'),
  leaseSec: parsedOr('--lease-sec <n>', 'a run\'s lease: a lost worker\'s runs go back to the queue after one to two leases', parsePositiveInt, 30, { request: 'leaseSec' }),
  graceSec: parsedOr('--grace-sec <n>', 'on SIGTERM/SIGINT: take no more runs, let the running ones finish this long, then hand the rest back to the queue unrecorded (fits Kubernetes\' default 30 s terminationGracePeriodSeconds)', parseIndex, 20),
  allowUpstream: list('--allow-upstream <where>', 'a model API this worker sends its API keys to: vendor, openrouter or a base URL (repeatable; default: BAKEOFF_ALLOW_UPSTREAMS, else vendor and openrouter); a job asking for another is refused', { request: 'allowUpstreams' }),
  secretFile: text('--secret-file <file>', SECRET_FILE, { request: 'secretFile' }),
  json: bool('--json', 'one JSON event per line on stdout instead of lines on stderr'),
  queue: text('--queue <url>', QUEUE_URL, { request: 'queue' }),
  ...QUEUE_TLS,
} as const;

export const QUEUE_OPTIONS = {
  json: JSON_OUTPUT,
  queue: text('--queue <url>', QUEUE_URL, { request: 'queue' }),
  ...QUEUE_TLS,
} as const;

export const REPORT_OPTIONS = {
  format: choiceOr('--format <format>', 'output format; html: one self-contained file, the site\'s leaderboard (or comparison) page', OUTPUT_FORMATS, 'table'),
  out: text('--out <path>', 'write to a file instead of stdout'),
  compare: words('--compare <agents...>', 'paired comparison of two agent ids (A B): wins, ties, void, exact McNemar p, paired difference'),
  ...TABLE,
} as const;

export const VIEW_OPTIONS = {
  host: textOr('--host <host>', 'address to listen on (anything but 127.0.0.1 lets others who have the URL read the private pages)', '127.0.0.1', { request: 'host' }),
  port: parsed('--port <n>', 'port to listen on (default: a free one)', parsePort, { request: 'port' }),
} as const;

export const PLAN_OPTIONS = {
  target: requiredText('--target <difference>', 'the difference in share solved to detect: 0.15 or 15%'),
  compare: words('--compare <agents...>', 'the pilot\'s two agents (A B); default: the top two of its leaderboard'),
  discordance: text('--discordance <psi>', 'one run per task: the share of tasks one agent solves and the other not (0–1)'),
  betweenSd: text('--between-sd <sd>', 'several runs per task: the standard deviation of the per-task differences in share solved (0–1)'),
  withinVar: text('--within-var <w>', 'several runs per task: the mean within-task variance pA(1−pA) + pB(1−pB) (0–0.5)'),
  tasks: text('--tasks <list>', 'the table\'s rows, e.g. 10,20,30,50,100'),
  runs: text('--runs <list>', 'the table\'s columns, runs per task, e.g. 1,2,3,5,10'),
  currentTasks: text('--current-tasks <n>', 'the tasks the suite has now (default: the pilot\'s)'),
  maxTasks: text('--max-tasks <n>', 'the largest suite the search looks at (default 500)'),
  json: JSON_OUTPUT,
} as const;

export const VERIFY_OPTIONS = {
  suite: REGRADE_SUITE,
  json: JSON_OUTPUT,
  concurrency: parsedOr('--concurrency <n>', 'runs re-graded at once', parsePositiveInt, 2),
  task: list('--task <id>', 're-check this task\'s runs only (repeatable); a partial re-check is never reused by publish', { request: 'tasks' }),
  agent: list('--agent <id>', 're-check this agent\'s runs only (repeatable; the id as the report shows it)', { request: 'agents' }),
  wait: WAIT,
  ...sandboxOptions(),
} as const;

export const PUBLISH_OPTIONS = {
  out: requiredText('--out <dir>', 'folder to write the site to', { request: 'out' }),
  private: bool('--private', 'add task ids, run ids and each run\'s change, agent output and test output (never publish this)', { request: 'private' }),
  suite: REGRADE_SUITE,
  concurrency: parsedOr('--concurrency <n>', 'runs re-graded at once', parsePositiveInt, 2),
  wait: WAIT,
  allowDraftPrompts: bool('--allow-draft-prompts', 'publish although some prompts are still drafts bakeoff wrote (task from-commit)', { request: 'allowDraftPrompts' }),
  reverify: bool('--reverify', 're-grade every run even when an earlier clean re-check of the same, unchanged results folder stands (verified.json)', { request: 'reverify' }),
  ...sandboxOptions('development only: verify without the sandbox'),
} as const;

export const FROM_COMMIT_OPTIONS = {
  suite: SUITE_FOLDER,
  id: text('--id <id>', 'task id (default: from the commit subject)', { request: 'id' }),
  kind: choice('--kind <kind>', 'bug or feature (default: guessed from the commit subject)', ['bug', 'feature'], { request: 'kind' }),
  language: choice('--language <language>', 'default: guessed from the changed files', ['js', 'ts', 'python', 'rust'], { request: 'language' }),
  tests: list('--tests <glob>', 'the test files (repeatable; default: test/ tests/ __tests__/ spec/ folders, *.test.*, *.spec.*, test_*.py, *_test.py)', { request: 'tests' }),
  setup: text('--setup <command>', 'setup command run once per task outside the sandbox (`none` for none; default: guessed from the lockfile)'),
  test: text('--test <command>', 'the bare test command (default: guessed from the manifest)', { request: 'test' }),
  format: choice<ReportFormat, 'format'>('--format <format>', 'test report format', 'report-formats', { request: 'format' }),
  report: text('--report <path>', 'format junit: where the test command writes its JUnit XML (a path or glob relative to the repo)', { request: 'report' }),
  issue: text('--issue <file>', 'draft the prompt from this issue text instead of the commit message'),
  ...admissionOptions('machine-readable output (what was written, and the admission verdicts)'),
} as const;

export const MINE_OPTIONS = {
  range: text('--range <range>', 'revision range, e.g. v1.0..main (default: HEAD, along first parents)', { request: 'range' }),
  limit: parsedOr('--limit <n>', 'commits looked at', parsePositiveInt, 100, { request: 'limit' }),
  tests: list('--tests <glob>', 'the test files (repeatable; default: the test-file rule of from-commit)', { request: 'tests' }),
  validate: bool('--validate', 'write each candidate into a scratch suite and run the admission checks'),
  add: text('--add <dir>', 'write the admitted candidates into this suite (implies --validate) and validate them there', { request: 'addTo' }),
  ...admissionOptions(),
} as const;

export const IMPORT_SWEBENCH_OPTIONS = {
  repos: requiredText('--repos <dir>', 'folder of git clones: <owner>__<name>/, <name>/ or <owner>/<name>/ per repository', { request: 'repos' }),
  suite: SUITE_FOLDER,
  instance: list('--instance <id>', 'import this instance only (repeatable)'),
  setup: text('--setup <command>', 'setup command for every instance (`none` for none; default: from the repository)'),
  test: text('--test <command>', 'test command for every instance (default: the runner on the test patch\'s files)', { request: 'test' }),
  kind: choice('--kind <kind>', 'bug or feature', ['bug', 'feature'], { request: 'kind' }),
  ...admissionOptions(),
} as const;

export const IMPORT_EXERCISM_OPTIONS = {
  suite: SUITE_FOLDER,
  exercises: text('--exercises <slugs>', 'comma-separated exercise slugs (default: every practice exercise)'),
  ...admissionOptions(),
} as const;

export const IMPORT_HARBOR_OPTIONS = {
  suite: SUITE_FOLDER,
  ...admissionOptions(),
} as const;

export const EXPORT_HARBOR_OPTIONS = {
  out: requiredText('--out <dir>', 'a new folder to write the task folders into', { request: 'out' }),
} as const;

export const EXPORT_PREDICTIONS_OPTIONS = {
  out: text('--out <file>', 'write to this file instead of stdout'),
  suite: text('--suite <dir>', 'the suite the runs were baked from (default: the folder the results record)', { request: 'suite' }),
  replay: parsedOr('--replay <n>', '0-based replay of each task and agent', parseIndex, 0, { request: 'replay' }),
  agent: list('--agent <id>', 'only this agent (repeatable)', { request: 'agents' }),
} as const;

export const EXPORT_ATIF_OPTIONS = {
  out: requiredText('--out <dir>', 'a new folder: <run-id>/order-<n>/trajectory.json', { request: 'out' }),
} as const;

export const DOCTOR_OPTIONS = {
  json: JSON_OUTPUT,
  clean: bool('--clean', 'remove what killed bakeoffs left: mounts, scratch folders and cgroups whose owner is gone (and half-written runs with --results)', { request: 'clean' }),
  results: text('--results <dir>', 'also list the half-written run folders (runs/.tmp-*) of this results folder', { request: 'results' }),
} as const;

export const AGENTS_OPTIONS = {
  json: JSON_OUTPUT,
  wide: bool('--wide', 'print every column at full width, even when it is wider than the terminal'),
} as const;

export const AUTH_OPTIONS = {
  from: text('--from <file>', 'import from this file (Codex auth.json, Claude Code .credentials.json) instead of the CLI\'s own place'),
  json: JSON_OUTPUT,
} as const;

export const MODEL_SERVER_OPTIONS = {
  script: textOr('--script <name>', 'gold, web, provider-tool, 500, 429, hang, malformed, truncated, disconnect, or a replay file (JSON)', 'gold'),
  host: textOr('--host <host>', 'address to listen on', '127.0.0.1'),
  port: parsedOr('--port <n>', 'port to listen on', parsePort, 8788),
  log: text('--log <file.jsonl>', 'append every request (headers and body) to this file'),
  session: text('--session <file.json>', 'the change the gold script makes for every request: {workspace, edits: [{path, before, after}]}'),
} as const;

export type ValidateFlags = FlagsOf<typeof VALIDATE_OPTIONS>;
export type RunFlags = FlagsOf<typeof RUN_OPTIONS>;
export type WorkerFlags = FlagsOf<typeof WORKER_OPTIONS>;
export type QueueFlags = FlagsOf<typeof QUEUE_OPTIONS>;
export type ReportFlags = FlagsOf<typeof REPORT_OPTIONS>;
export type ViewFlags = FlagsOf<typeof VIEW_OPTIONS>;
export type PlanFlags = FlagsOf<typeof PLAN_OPTIONS>;
export type VerifyFlags = FlagsOf<typeof VERIFY_OPTIONS>;
export type PublishFlags = FlagsOf<typeof PUBLISH_OPTIONS>;
export type FromCommitFlags = FlagsOf<typeof FROM_COMMIT_OPTIONS>;
export type MineFlags = FlagsOf<typeof MINE_OPTIONS>;
export type ImportSwebenchFlags = FlagsOf<typeof IMPORT_SWEBENCH_OPTIONS>;
export type ImportExercismFlags = FlagsOf<typeof IMPORT_EXERCISM_OPTIONS>;
export type ImportHarborFlags = FlagsOf<typeof IMPORT_HARBOR_OPTIONS>;
export type ExportHarborFlags = FlagsOf<typeof EXPORT_HARBOR_OPTIONS>;
export type ExportPredictionsFlags = FlagsOf<typeof EXPORT_PREDICTIONS_OPTIONS>;
export type ExportAtifFlags = FlagsOf<typeof EXPORT_ATIF_OPTIONS>;
export type DoctorFlags = FlagsOf<typeof DOCTOR_OPTIONS>;
export type AgentsFlags = FlagsOf<typeof AGENTS_OPTIONS>;
export type AuthFlags = FlagsOf<typeof AUTH_OPTIONS>;
export type ModelServerFlags = FlagsOf<typeof MODEL_SERVER_OPTIONS>;
