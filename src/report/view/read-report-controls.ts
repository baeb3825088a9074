/**
 * The replay rule of a suite's controls (DESIGN.md §1 item 2): every (task, agent) is run
 * `replays` times; a task whose replays disagree by more than `allowedDrift` outcomes is void
 * for that agent (replay drift).
 */
export interface ReplayRule {
  readonly replays: number;
  readonly allowedDrift: number;
}

/** The parts of the controls that change how a report counts. */
export interface ReportControls {
  /** Null: runs are independent samples (the share is over runs). */
  readonly replayRule: ReplayRule | null;
  /** Reports refuse to rank when an agent has more void tasks than this; null: no limit. */
  readonly voidLimit: number | null;
  /**
   * The agent's network: `none` (the closed web: the model API fetches nothing for the agent)
   * or `model-api+web` (the open web); null when not one control set (absent, or several).
   */
  readonly network: Network | null;
}

/** The suite's `network` control, as reports name it. */
export type Network = 'none' | 'model-api+web';

/**
 * Read `replayRule`, `voidLimit` and `network` from controls as stored (the suite module validated them;
 * the report module must not import its schema). Anything that is not one controls object
 * (absent, or a list of several control sets) has neither.
 *
 * @throws RangeError when a field is present but malformed: a report must not silently drop a rule
 */
export function readReportControls(controls: unknown): ReportControls {
  if (typeof controls !== 'object' || controls === null || Array.isArray(controls)) {
    return { replayRule: null, voidLimit: null, network: null };
  }
  const { replayRule, voidLimit, network } = controls as { replayRule?: unknown; voidLimit?: unknown; network?: unknown };
  return { replayRule: readReplayRule(replayRule), voidLimit: readCount('voidLimit', voidLimit, 0), network: readNetwork(network) };
}

/** Controls stored before the control had another value mean `none`. */
function readNetwork(value: unknown): Network {
  if (value === undefined || value === null || value === 'none') return 'none';
  if (value === 'model-api+web') return value;
  throw new RangeError(`controls.network: expected "none" or "model-api+web", got ${JSON.stringify(value)}`);
}

function readReplayRule(value: unknown): ReplayRule | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object') throw new RangeError(`controls.replayRule: expected an object, got ${JSON.stringify(value)}`);
  const { replays, allowedDrift } = value as { replays?: unknown; allowedDrift?: unknown };
  return {
    replays: readCount('replayRule.replays', replays, 2) ?? missing('replayRule.replays'),
    allowedDrift: readCount('replayRule.allowedDrift', allowedDrift, 0) ?? 0,
  };
}

function readCount(field: string, value: unknown, min: number): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RangeError(`controls.${field}: expected an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function missing(field: string): never {
  throw new RangeError(`controls.${field}: missing`);
}
