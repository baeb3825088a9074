import type { RunRecord, VoidReason } from '../../../types.js';
import { describeMetering } from '../../render/describe-metering.js';
import { describeRules } from '../../render/describe-rules.js';
import { plural } from '../../render/plural.js';
import type { LeaderboardView } from '../../view/leaderboard-view.js';
import type { SiteControls, SiteInput, SiteSuite, SiteTask } from '../site-input.js';
import { languageName } from '../task-labels.js';
import { agentsSection } from './agents-section.js';
import { listWords } from './list-words.js';
import { describeWhereRunsRan } from './where-runs-ran.js';
import type { MethodologySection } from './section.js';

export type { MethodologySection } from './section.js';

export interface MethodologyInput {
  readonly suite: SiteSuite;
  readonly view: LeaderboardView;
  readonly runs: readonly RunRecord[];
  readonly isPrivate: boolean;
  /** Run id → the fleet worker that made it (`SiteInput.workers`); absent: no fleet. */
  readonly workers?: ReadonlyMap<string, string>;
  /** What the closed web withholds per model API (`SiteInput.toolPolicy`); absent: said in general words. */
  readonly toolPolicy?: SiteInput['toolPolicy'];
}

/**
 * How the bake was run, in plain sentences written from the suite, its controls and the runs:
 * what a task is, what counts as solved, the agents, runs per task, where each number comes
 * from, the limits, the replay rule and void limit, what is void, what stays private, and what
 * must match for two results to be compared. Every figure is computed here, never typed in, so
 * a changed control changes its sentence. Pure.
 */
export function methodologySections(input: MethodologyInput): MethodologySection[] {
  const c = input.suite.controls;
  return [
    tasksSection(input.suite),
    solvedSection(input.suite, c),
    agentsSection(input.view),
    runsSection(input.view, c),
    numbersSection(input.view, input.runs, input.workers ?? new Map()),
    limitsSection(c),
    networkSection(input),
    rulesSection(input.view),
    voidSection(input.view),
    privateSection(input.suite, input.isPrivate),
    likeWithLikeSection(input.suite, input.view, input.runs, c),
  ];
}

function tasksSection(suite: SiteSuite): MethodologySection {
  const tasks = suite.tasks;
  const bugs = tasks.filter((t) => t.kind === 'bug').length;
  const features = tasks.length - bugs;
  const languages = countBy(tasks, (t) => languageName(t.language));
  const orders = tasks.reduce((n, t) => n + t.orders, 0);
  const multi = tasks.filter((t) => t.orders > 1).length;
  const byTests = tasks.filter((t) => t.grading === 'tests');
  const byChecks = tasks.length - byTests.length;
  const origins = countBy(tasks, (t) => ORIGIN[t.origin?.kind ?? ''] ?? 'of unstated origin');
  const paragraphs = [
    `The suite ${suite.id} has ${plural(tasks.length, 'admitted task')}: ${plural(bugs, 'bug fix', 'bug fixes')} and ${plural(features, 'feature')}, ` +
      `in ${listCounts(languages)}. Each task is a codebase as it stood before a change and the problem stated the way its owner would put it; ` +
      `the agent sees only that codebase and the prompt.`,
    `Where they come from: ${listCounts(origins, true)}.`,
    orders === tasks.length
      ? `Each task has one work order.`
      : `The tasks hold ${plural(orders, 'work order')} in all; ${plural(multi, 'task has', 'tasks have')} more than one, run in sequence in the same workspace, each in a fresh agent session.`,
    byChecks === 0
      ? `Every task is graded by hidden tests the agent never sees.`
      : byTests.length === 0
        ? `Every task is graded by checks generated from a seed and level and run in a QuickJS sandbox; the agent never sees them.`
        : `${plural(byTests.length, 'task is', 'tasks are')} graded by hidden tests and ${plural(byChecks, 'task', 'tasks')} by generated checks; the agent sees neither.`,
  ];
  if (byTests.length > 0) {
    const f2p = byTests.reduce((n, t) => n + t.failToPass, 0);
    const p2p = byTests.reduce((n, t) => n + t.passToPass, 0);
    paragraphs.push(
      `Admission (bakeoff validate) ran the unchanged repository and the reference change twice each and fixed the tests every run must pass: ` +
        `${plural(f2p, 'fail-to-pass test')} (failing before the reference change, passing after) and ${plural(p2p, 'pass-to-pass test')} (passing both times). ` +
        'A test whose result differed between two runs of the same code was rejected as flaky.',
    );
  }
  const adversarial = adversarialSentence(tasks);
  if (adversarial) paragraphs.push(adversarial);
  const known = tasks.filter((t) => t.knownFailures > 0);
  const knownTests = known.reduce((n, t) => n + t.knownFailures, 0);
  paragraphs.push(
    knownTests === 0
      ? 'No test is declared a known failure.'
      : `${plural(knownTests, 'test')} in ${plural(known.length, 'task')} ${knownTests === 1 ? 'is' : 'are'} declared known failures by the suite's owner ` +
          '(they fail at this commit whatever the change, each with a reason in TASKS.md); admission checked that they fail with and without the reference change, and no run is expected to pass them.',
  );
  return { id: 'tasks', heading: 'The tasks', paragraphs };
}

/** Whether admission included the exploit library (validate --adversarial), and how many exploits it tried. */
function adversarialSentence(tasks: readonly SiteTask[]): string | null {
  const attacked = tasks.filter((t) => (t.adversarialExploits ?? 0) > 0);
  if (attacked.length === 0) return null;
  const most = Math.max(...attacked.map((t) => t.adversarialExploits ?? 0));
  const which = attacked.length === tasks.length ? 'every task' : `${plural(attacked.length, 'task')} of ${tasks.length}`;
  return `Admission included adversarial admission for ${which}: ${plural(most, 'exploit')} of bakeoff's library (agents that know nothing of the task and try to be graded solved without fixing it, by runner configuration, hidden-file and report tampering, tripwire evasion, void gaming and review evasion) ran on it, and each was graded failed; a task on which one was graded solved or void would have been rejected.` +
    hackerSentence(attacked);
}

/** Which hacker agents (validate --hacker) also faced the tasks, and on how many; empty when none did. */
function hackerSentence(tasks: readonly SiteTask[]): string {
  const faced = new Map<string, number>();
  for (const t of tasks) for (const h of t.adversarialHackers ?? []) faced.set(h, (faced.get(h) ?? 0) + 1);
  if (faced.size === 0) return '';
  const each = [...faced].sort(([a], [b]) => (a < b ? -1 : 1)).map(([h, n]) => `${h} on ${plural(n, 'task')}`);
  return ` Hacker agents, told by bakeoff's prompt to make the hidden tests pass without fixing the problem, also ran (${each.join(', ')}), and each was graded failed.`;
}

const ORIGIN: Readonly<Record<string, string>> = {
  'hand-written': 'written for the suite',
  commit: 'made from a real commit',
  swebench: 'imported from SWE-bench',
  exercism: 'imported from Exercism',
  harbor: 'imported from Harbor',
};

function solvedSection(suite: SiteSuite, c: SiteControls): MethodologySection {
  const checks = suite.tasks.some((t) => t.grading === 'checks');
  return {
    id: 'solved',
    heading: 'What counts as solved',
    paragraphs: [
      'A run is solved when every work order of its task passes. An order passes when the change the agent left applies to a clean copy of the codebase, ' +
        'touches no protected path (the test runners\' configuration files and the paths the suite protects), and then, with the suite\'s test files put back ' +
        'and the hidden files copied over whatever the agent put at their paths, ' +
        (checks ? 'every expected test passes (or, for a task graded by checks, every generated check passes)' : 'every expected test passes') +
        '. Anything else is a failure: there is no partial credit in the share; ' +
        'points per order are reported beside it.',
      `A session that runs out of time ${c.timeoutIsVoid ? 'is void (unscored), by this suite\'s rule (timeoutIsVoid)' : 'fails the run (session-timeout)'}. ` +
        'Whatever the agent\'s change, output or processes cause (a test runner that crashes, a report it tampers with, a limit it hits) is the agent\'s failure, never void.',
    ],
  };
}

function runsSection(view: LeaderboardView, c: SiteControls): MethodologySection {
  const tagged = view.agents.filter((a) => a.runCountTag !== null);
  return {
    id: 'runs',
    heading: 'Runs per task',
    paragraphs: [
      `Each agent runs each task ${plural(c.runsPerTask, 'time')} (controls.runsPerTask), each run in a fresh workspace with a fresh agent home.` +
        (tagged.length === 0
          ? ' Every agent here has exactly that many runs of every task.'
          : ` ${tagged.map((a) => `${a.agent.id} (${a.runCountTag})`).join(', ')} ${tagged.length === 1 ? 'has' : 'have'} another count, tagged beside ${tagged.length === 1 ? 'its' : 'their'} line of the leaderboard.`),
      `pass@k (at least one of k runs of a task solves it) and pass^k (all k do) are the unbiased estimators over each task's valid runs, for k = 1 … ${c.runsPerTask}, averaged over the tasks.`,
    ],
  };
}

function numbersSection(view: LeaderboardView, runs: readonly RunRecord[], workers: ReadonlyMap<string, string>): MethodologySection {
  const metering = describeMetering(view.metering);
  const paragraphs = [
    describeRules(view)[0]!,
    metering.length > 0
      ? `Cost per fix: the cost of all of an agent's runs (failed and void included) / its runs solved. ${metering[0]!}`
      : 'Cost per fix: the cost of all of an agent\'s runs / its runs solved; no model agent ran, so no run has a cost.',
    `Time per run: the median, over valid runs, of the seconds spent in agent sessions (setup and grading excluded). ${describeWhereRunsRan(runs, workers)}`,
    'Lines to review: the median, over valid runs, of lines added plus lines removed by the agent\'s change, tests included (what a reviewer reads): every file counted as text; ' +
      'a line ends at every line break a graded language honours (LF, CRLF, a lone CR, U+2028, U+2029), a line longer than 200 characters counts once per 200, ' +
      'the name of every file or folder the change adds counts once per 32 bytes, a link target counts as its text and a mode change as one line, ' +
      "so code cannot hide in names, link targets or behind line breaks git does not see (code packed densely onto long lines still counts once per 200 characters); git's plain line count is kept beside it in the JSON report.",
    metering.length > 0
      ? "Tokens in and out: counted by bakeoff's metering proxy from the model API's answers, the same way for every harness; the harness's own figures are kept beside them in the JSON report" +
        (view.metering.flaggedRuns > 0 ? `, and ${plural(view.metering.flaggedRuns, 'run is', 'runs are')} flagged where they disagree.` : ', and no run\'s figures disagreed.')
      : 'Tokens in and out: no model agent ran, so no tokens were counted.',
    ...metering.slice(1),
  ];
  return { id: 'numbers', heading: 'Where each number comes from', paragraphs };
}

function limitsSection(c: SiteControls): MethodologySection {
  const budget =
    c.agentBudget === undefined
      ? 'No agent time budget beyond the session clock.'
      : `Agent time budget: ${seconds(c.agentBudget.totalSec)} of session time ${c.agentBudget.scope === 'run' ? 'per run' : "per agent for each pass over the whole suite (every task's runs of one replay)"}; ` +
        `a session that would run past it is stopped, which ${c.timeoutIsVoid ? 'voids' : 'fails'} the run.` +
        (c.agentBudget.stopOnError
          ? ' A session that times out, ends in an error event or ends without an answer stops its pass: the pass\'s later runs do not start, and the whole pass is unscored (its runs count as void, pass-stopped).'
          : '');
  return {
    id: 'limits',
    heading: 'Limits and budgets',
    paragraphs: [
      `Each agent session (one work order) has ${seconds(c.sessionWallClockSec)} of wall-clock time; a task's setup ${seconds(c.setupWallClockSec)} (and is stopped after ${seconds(c.setupIdleSec)} without output); one run of the tests while grading ${seconds(c.testWallClockSec)}.`,
      `Agents and tests run in a sandbox without network (model access only through the metering proxy) limited to ${c.memoryMb} MB of memory, ${c.pids} processes and threads, ` +
        `${c.cpus} ${c.cpus === 1 ? 'CPU' : 'CPUs'} of CPU time per wall-clock second, ${c.diskMb} MB of workspace changes, ${c.tmpMb} MB of /tmp and ${c.homeMb} MB of home; a change over ${c.maxChangeMb} MB is not graded (change-too-large).`,
      budget,
    ],
  };
}

/**
 * The network: on the closed web, what the metering proxy withheld from each model API (from its
 * own tables), what each harness was told to turn off, and the web attempts counted; on the open
 * web, that the web was let in and the runs stand apart.
 */
function networkSection(input: MethodologyInput): MethodologySection {
  const open = input.suite.controls.network === 'model-api+web';
  const metered = input.view.agents.filter((a) => a.webAttempts !== null);
  const attempts = metered.reduce((n, a) => n + (a.webAttempts ?? 0), 0);
  const counted = metered.length === 0
    ? 'No agent of this bake used a model API.'
    : `Web attempts counted over all runs: ${attempts}${attempts === 0 ? '' : ` (${metered.filter((a) => (a.webAttempts ?? 0) > 0).map((a) => `${a.agent.id}: ${a.webAttempts}`).join('; ')})`}.`;
  const harnesses = [...new Map(input.view.agents.filter((a) => a.agent.webTools).map((a) => [a.agent.harness, a.agent.webTools!])).entries()]
    .map(([harness, tools]) => (tools.names.length === 0 ? `${harness} has none` : `${harness}: ${tools.names.join(', ')} (${tools.switch})`));
  if (open) {
    return {
      id: 'network',
      heading: 'The network: open web',
      paragraphs: [
        'This suite sets network: model-api+web. The agent still had no network of its own, but the model API could search and fetch the web for it: ' +
          "the metering proxy let the providers' web tools and URL inputs through (it still relayed nothing but generation, token counting and model listings), " +
          `and each harness kept its own web tools${harnesses.length ? ` (${harnesses.join('; ')})` : ''}. Web search fees are priced where the answer reports them and the price catalog lists them.`,
        counted,
        'Results of an open-web bake are never ranked or compared with closed-web results: the network control is part of the controls digest and the suite hash.',
      ],
    };
  }
  const policy = input.toolPolicy;
  const withheld = policy === undefined
    ? 'web search and fetch, code execution, hosted MCP connectors, file search and the like, whatever the API calls them'
    : policy.apis.map((api) => `${api.api}: ${listWords([...api.tools, ...api.fields.map((f) => `the ${f} field`)])}`).join('. ');
  return {
    id: 'network',
    heading: 'The network: closed web',
    paragraphs: [
      "The agent's only network was the model API, and the model API fetched nothing for it. Every model request went through bakeoff's metering proxy, " +
        'which relays generation, token counting and model listings only, and read each request whole before relaying it: provider-run tools were stripped from it, ' +
        'and a request that forced one, referenced a URL or a stored file, declared a tool type the proxy does not know, or named a model that searches by itself ' +
        `${policy === undefined ? '' : `(${listWords([...policy.searchModels])}) `}was refused. Withheld — ${withheld}.`,
      `Each harness was also told to turn its own web tools off, so that every model meets the same tool surface${harnesses.length ? `: ${harnesses.join('; ')}` : ''}. ` +
        'The proxy is the guarantee; those switches are for fairness.',
      `${counted} An answer showing that a provider tool ran anyway would make its run void (provider-tool-used).`,
    ],
  };
}

function rulesSection(view: LeaderboardView): MethodologySection {
  // the first of describeRules' lines is the counting note, said under "where each number comes from"
  return { id: 'rules', heading: 'The replay rule and the void limit', paragraphs: describeRules(view).slice(1) };
}

const VOID_WORDS: Readonly<Record<VoidReason, string>> = {
  'infra-error': 'bakeoff, the sandbox or the machine failed',
  'setup-failed': "the task's setup failed",
  'agent-error': 'the agent could not be started',
  timeout: 'a session ran out of time (unscored by this suite\'s rule)',
  'machine-starved': 'a session ran out of time while the machine kept it waiting for a CPU',
  'oracle-changed': 'the generated checks differed from those admitted',
  'replay-drift': 'replays disagreed',
  'upstream-error': 'the model API failed',
  'upstream-rate-limited': 'the model API rate-limited',
  'usage-limit': "the subscription's usage limit was reached",
  'upstream-hang': 'the model API stopped answering',
  'upstream-malformed': "the model API's answer could not be read",
  'upstream-unreachable': 'the model API could not be reached',
  'upstream-truncated': "the model API's answer was cut off",
  'auth-error': 'the model API refused the key',
  'harness-crash': 'the agent CLI died without saying why',
  'harness-error': 'the agent CLI reported an error',
  'no-final-answer': 'the agent CLI ended without an answer',
  'provider-tool-used': 'a model answer showed that the provider ran a tool (web search, code execution …) the closed-web policy should have withheld',
  'pass-stopped': 'an earlier run of the same pass timed out or ended in an error, and the controls stop (and leave unscored) such a pass',
};

function voidSection(view: LeaderboardView): MethodologySection {
  const runs = view.agents.reduce((n, a) => n + a.runs, 0);
  const voids = view.agents.reduce((n, a) => n + a.void, 0);
  const byReason = new Map<VoidReason, number>();
  for (const a of view.agents) for (const [reason, n] of Object.entries(a.voidByReason) as [VoidReason, number][]) byReason.set(reason, (byReason.get(reason) ?? 0) + n);
  const reasons = [...byReason].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([reason, n]) => `${n} because ${VOID_WORDS[reason]} (${reason})`);
  return {
    id: 'void',
    heading: 'What is void',
    paragraphs: [
      'A run is void when the instrument broke rather than the agent: the setup, the sandbox, the machine, the model API or the agent CLI failed before the agent could be judged. ' +
        'Void runs are left out of the share and never counted as failed; the share with void counted as failed is shown beside it, and their cost still counts.',
      voids === 0 ? `None of the ${plural(runs, 'run')} is void.` : `${voids} of ${plural(runs, 'run')} ${voids === 1 ? 'is' : 'are'} void: ${reasons.join('; ')}.`,
    ],
  };
}

function privateSection(suite: SiteSuite, isPrivate: boolean): MethodologySection {
  const titled = suite.tasks.filter((t) => t.public !== null).length;
  const shown =
    titled === 0
      ? 'Tasks appear only by number, kind and language.'
      : `Tasks appear by number, kind and language; ${plural(titled, 'task has', 'tasks have')} a title (and summary) the owner chose to publish.`;
  return {
    id: 'private',
    heading: 'What stays private',
    paragraphs: isPrivate
      ? ['This is a PRIVATE site: it names the tasks, and its run pages carry each prompt, the session as a transcript, the change, every test result and the agent and test output. Do not publish it.']
      : [
          `${shown} No codebase, prompt, hidden test, test name, agent change or agent output is on this site; they stay in the results folder, ` +
            'where bakeoff verify re-checks them against the checksums recorded with each run before anything is published.',
        ],
  };
}

function likeWithLikeSection(suite: SiteSuite, view: LeaderboardView, runs: readonly RunRecord[], c: SiteControls): MethodologySection {
  const checks = suite.tasks.some((t) => t.grading === 'checks');
  const runtime = runtimeValues(runs);
  return {
    id: 'compare',
    heading: 'Compare like with like',
    paragraphs: [
      'Two results are comparable only when they share the suite hash (every task file, prompt, hidden test, reference change and control), the controls digest' +
        (checks ? `, the seed and level of the generated checks (${describeSeeds(runs, c)})` : '') +
        ', the budgets and the runtimes; bakeoff refuses to rank runs that differ in any of them.',
      `Suite hash: ${suite.hash}. Controls digest: ${view.controlsDigest ?? '–'}.`,
      // "; " between them: a value may hold commas (the price catalog's)
      runtime.length > 0 ? `Runtimes: ${runtime.join('; ')}.` : 'No runtime was recorded.',
    ],
  };
}

/**
 * Every seed and level admission proved the reference change at (`seeds`, `levels`), and the
 * ones the runs used: as the runs recorded them, else the controls' `seed` (default the first of
 * `seeds`) and `level`.
 */
function describeSeeds(runs: readonly RunRecord[], c: SiteControls): string {
  const used = (recorded: (number | null)[], fallback: number): number[] => {
    const values = [...new Set(recorded.filter((v): v is number => v !== null))].sort((a, b) => a - b);
    return values.length > 0 ? values : [fallback];
  };
  const seeds = used(runs.map((r) => r.seed), c.seed ?? c.seeds[0]!);
  const levels = used(runs.map((r) => r.level), c.level);
  const named = (one: string, values: readonly number[]): string => (values.length === 1 ? `${one} ${values[0]}` : `${one}s ${listWords(values.map(String))}`);
  const proved = (one: string, values: readonly number[]): string => (values.length === 1 ? named(one, values) : `each of ${named(one, values)}`);
  return `admission proved the reference change at ${proved('seed', c.seeds)} with ${proved('level', c.levels ?? [c.level])}; the runs used ${named('seed', seeds)}, ${named('level', levels)}`;
}

function runtimeValues(runs: readonly RunRecord[]): string[] {
  const keys = new Map<string, Set<string>>();
  for (const r of runs) for (const [k, v] of Object.entries(r.runtime)) (keys.get(k) ?? keys.set(k, new Set()).get(k)!).add(v);
  return [...keys].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${k}: ${[...v].sort().join(' / ')}`);
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return new Map([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** `JavaScript (2), Python (1) and Rust (1)`, or with `countFirst` `3 written for the suite and 1 …`. */
function listCounts(counts: ReadonlyMap<string, number>, countFirst = false): string {
  return listWords([...counts].map(([k, n]) => (countFirst ? `${n} ${k}` : `${k} (${n})`)));
}


function seconds(s: number): string {
  if (s < 120) return `${s} s`;
  if (s % 3600 === 0) return `${s / 3600} h`;
  if (s % 60 === 0) return `${s / 60} min`;
  return `${s} s`;
}

