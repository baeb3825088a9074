import type { FailReason, VoidReason } from '../../types.js';

/**
 * The version of the failure anatomy (the classes, and the rules that assign them). Bumped when a
 * rule changes what a stored run is classed as, so two reports of the same runs that disagree
 * say why. Every JSON report carries it.
 */
export const FAILURE_ANATOMY_VERSION = 1;

/** Why a run that was not solved was not, in one of a few classes a reader can compare across agents. */
export const FAILURE_CLASSES = [
  'no-change',
  'did-not-build',
  'partly-passing',
  'regressions',
  'protected-or-refused',
  'test-limit',
  'session-limit',
  'harness-error',
  'model-error',
  'instrument',
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/**
 * Whose failure it is. `agent`: the agent (model and harness together) made a change, or none,
 * and it fell short — graded on the change or stopped by a session limit. `harness`: the CLI
 * broke (crashed, reported an error, sent a request the API refused, ended without an answer).
 * `model`: the model or its API failed it (5xx, 429, hang, unreadable or cut answers, an empty
 * answer, a refusal). `instrument`: bakeoff, the machine, the task's setup or the user's account
 * (void, never a loss).
 */
export type FailureSide = 'agent' | 'harness' | 'model' | 'instrument';

export const FAILURE_SIDES: readonly FailureSide[] = ['agent', 'harness', 'model', 'instrument'];

/** What a class is called on pages and in tables, and whose failure it is. */
export const FAILURE_CLASS_INFO: Readonly<Record<FailureClass, { readonly label: string; readonly side: FailureSide; readonly meaning: string }>> = {
  'no-change': { label: 'no change', side: 'agent', meaning: 'the agent left the code as it was' },
  'did-not-build': { label: 'did not build', side: 'agent', meaning: 'the change did not build or import: no expected test could run' },
  'partly-passing': { label: 'partly passing', side: 'agent', meaning: 'some of the tests (or checks) the task must turn green still fail' },
  regressions: { label: 'regressions', side: 'agent', meaning: 'tests that passed before the change fail after it' },
  'protected-or-refused': { label: 'protected / refused', side: 'agent', meaning: 'the change touched what grades it, or could not be graded as a change (too large, not a patch, did not apply)' },
  'test-limit': { label: 'tests over a limit', side: 'agent', meaning: 'with the change, the tests ran out of time or printed past the output limit' },
  'session-limit': { label: 'session limit', side: 'agent', meaning: 'the session ran into its time, memory, process or disk limit' },
  'harness-error': { label: 'harness error', side: 'harness', meaning: 'the CLI crashed, reported an error, sent a request the model API refused, or ended without an answer' },
  'model-error': { label: 'model error', side: 'model', meaning: 'the model API failed (5xx, 429, hang, unreadable or cut answers), or the model answered with nothing or refused' },
  instrument: { label: 'instrument', side: 'instrument', meaning: 'void for a cause outside the agent: bakeoff, the machine, the task\'s setup, the account' },
};

/**
 * How each fail reason is classed: `graded` reasons are read from the tests (or checks) and the
 * change; the others are a class and a cause as they stand. A `Record` over the reason type, so a
 * reason added to `types.ts` without a class here does not compile (and failure-classes.test.ts
 * fails naming it).
 */
export const FAIL_REASON_CLASS: Readonly<Record<FailReason, 'graded' | { readonly class: FailureClass; readonly cause: string }>> = {
  'tests-failed': 'graded',
  'checks-failed': 'graded',
  'grading-error': 'graded',
  'protected-path-changed': { class: 'protected-or-refused', cause: 'protected-path-changed' },
  'report-tampered': { class: 'protected-or-refused', cause: 'report-tampered' },
  'report-inconsistent': { class: 'protected-or-refused', cause: 'report-inconsistent' },
  'report-unreadable': { class: 'protected-or-refused', cause: 'report-unreadable' },
  'patch-did-not-apply': { class: 'protected-or-refused', cause: 'patch-did-not-apply' },
  'change-too-large': { class: 'protected-or-refused', cause: 'change-too-large' },
  'unsupported-file': { class: 'protected-or-refused', cause: 'unsupported-file' },
  'output-limit': { class: 'test-limit', cause: 'output' },
  'test-timeout': { class: 'test-limit', cause: 'time' },
  'session-timeout': { class: 'session-limit', cause: 'time' },
  'memory-limit': { class: 'session-limit', cause: 'memory' },
  'pids-limit': { class: 'session-limit', cause: 'pids' },
  'disk-limit': { class: 'session-limit', cause: 'disk' },
};

/**
 * How each void reason is classed. `session` reasons are refined from the session's evidence (a
 * request the API refused is the harness's; an empty last answer is the model's).
 */
export const VOID_REASON_CLASS: Readonly<Record<VoidReason, { readonly class: FailureClass; readonly cause: string; readonly session?: true }>> = {
  'upstream-error': { class: 'model-error', cause: 'api-server-error' },
  'upstream-rate-limited': { class: 'model-error', cause: 'api-rate-limited' },
  'upstream-hang': { class: 'model-error', cause: 'api-hang' },
  'upstream-malformed': { class: 'model-error', cause: 'api-malformed' },
  'upstream-truncated': { class: 'model-error', cause: 'api-truncated' },
  'provider-tool-used': { class: 'model-error', cause: 'provider-tool-used' },
  'harness-crash': { class: 'harness-error', cause: 'cli-crash', session: true },
  'harness-error': { class: 'harness-error', cause: 'error-event', session: true },
  'no-final-answer': { class: 'harness-error', cause: 'no-final-answer', session: true },
  'agent-error': { class: 'harness-error', cause: 'not-started' },
  timeout: { class: 'session-limit', cause: 'time', session: true },
  'upstream-unreachable': { class: 'instrument', cause: 'upstream-unreachable' },
  'auth-error': { class: 'instrument', cause: 'auth-error' },
  'usage-limit': { class: 'instrument', cause: 'usage-limit' },
  'infra-error': { class: 'instrument', cause: 'infra-error' },
  'setup-failed': { class: 'instrument', cause: 'setup-failed' },
  'oracle-changed': { class: 'instrument', cause: 'oracle-changed' },
  'replay-drift': { class: 'instrument', cause: 'replay-drift' },
  'pass-stopped': { class: 'instrument', cause: 'pass-stopped' },
  'machine-starved': { class: 'instrument', cause: 'machine-starved' },
};
