import { cachedLevelSource, cachedProbeInstalled } from '../agents/cached-probes.js';
import { orderLevels } from '../agents/effort-levels.js';
import { exampleOf, expectedHarness, HARNESS_NAMES, HARNESSES, isHarnessName, type Harness } from '../agents/harnesses/index.js';
import { installDirOf, installedVersion, installHarness } from '../agents/install-harness.js';
import { SPEC_FORMS } from '../agents/spec-forms.js';
import { UserError } from '../errors.js';
import { mapBounded } from '../util/map-bounded.js';
import { openProbeCache, type ProbeCache } from '../util/probe-cache.js';
import { noAnswerText } from '../util/probe-version.js';
import { cacheDirOf, envOf, type Place } from './paths.js';

const DESCRIPTIONS: Readonly<Record<(typeof SPEC_FORMS)[number], string>> = {
  gold: 'applies each order\'s reference change (must solve every admitted task)',
  noop: 'changes nothing (must fail every admitted task)',
  'patch:<file.jsonl>': 'grades changes made elsewhere: {"task","order","patch"} per line',
  'command:<shell command>': 'any program, run in the workspace with the prompt in $BAKEOFF_PROMPT_FILE',
  '<harness>:<model>[@effort]': 'a real coding-agent CLI (below) driving a model at an effort level; @lowest / @highest pick from its levels',
};

/** One agent spec form bakeoff understands, and what it does. */
export interface AgentSpecForm {
  readonly spec: string;
  readonly description: string;
}

/** One harness as `bakeoff agents` lists it. */
export interface HarnessListing {
  readonly harness: string;
  readonly package: string;
  readonly pinned: string;
  /** The version the installed CLI reports, or null (not installed, or no answer in time). */
  readonly installed: string | null;
  /** Set when the CLI is installed but did not answer `--version` in time (a busy machine), e.g. `did not answer in 120 s (the machine is busy?)`. */
  readonly noAnswer?: string;
  readonly dir: string;
  readonly wireFormat: string;
  readonly exampleModel: string;
  /** The example model's effort levels, lowest first. */
  readonly efforts: readonly string[];
  /** Where they come from: the installed CLI's own catalog, or bakeoff's table. */
  readonly effortsFrom: string;
}

export interface AgentsListing {
  readonly agents: readonly AgentSpecForm[];
  readonly harnesses: readonly HarnessListing[];
}

/**
 * The agent specs bakeoff understands and, per harness, the pinned version, the version
 * installed, its wire format and its example model's effort levels (levels can differ per model).
 * Versions and built-in catalogs come from the probe cache while each install is unchanged:
 * starting five Node CLIs takes seconds.
 */
export async function listAgents(place: Place = {}): Promise<AgentsListing> {
  const env = envOf(place);
  const probes = openProbeCache(cacheDirOf(place));
  // two probes at a time: five CLIs started at once on a small busy machine miss their clocks (decision 011);
  // an install whose version is kept in the probe cache is not started at all
  const harnesses = await mapBounded(HARNESS_NAMES, 2, async (name): Promise<HarnessListing> => {
    const h = HARNESSES[name];
    const model = exampleOf(h).model;
    const probe = await cachedProbeInstalled(h, env, probes);
    const installed = probe.kind === 'installed' ? probe.version : null;
    const noAnswer = probe.kind === 'no-answer' ? { noAnswer: noAnswerText(probe) } : {};
    return { harness: name, package: h.npmPackage, pinned: h.version, installed, ...noAnswer, dir: installDirOf(h, env), wireFormat: h.wireFormat(model), exampleModel: model, ...(await levelsOf(h, model, probe.kind !== 'missing', env, probes)) };
  });
  return { agents: SPEC_FORMS.map((spec) => ({ spec, description: DESCRIPTIONS[spec] })), harnesses };
}

async function levelsOf(h: Harness, model: string, installed: boolean, env: NodeJS.ProcessEnv, probes: ProbeCache): Promise<{ efforts: readonly string[]; effortsFrom: string }> {
  if (h.catalog && !installed) return { efforts: [], effortsFrom: 'the installed CLI\'s own model catalog (not installed: nothing to read yet)' };
  const source = await cachedLevelSource(h, env, probes);
  return { efforts: orderLevels(source.levels(model) ?? []), effortsFrom: source.source };
}

/** One harness installed by {@link installAgents}. */
export interface InstalledHarness {
  readonly harness: string;
  readonly package: string;
  readonly pinned: string;
  readonly dir: string;
  /** What the installed CLI reports, or null when it reports nothing. */
  readonly version: string | null;
  readonly seconds: number;
}

/**
 * Installs the pinned CLIs from npm, each in its own prefix (every registered harness when
 * `names` is empty); `onInstalled` hears each as it finishes. Always asks the CLI its version.
 */
export async function installAgents(names: readonly string[], place: Place = {}, onInstalled?: (installed: InstalledHarness) => void): Promise<InstalledHarness[]> {
  const unknown = names.filter((n) => !isHarnessName(n));
  if (unknown.length) throw new UserError(`agents install: expected harness names, each ${expectedHarness(unknown[0]!)}, received ${unknown.map((n) => JSON.stringify(n)).join(', ')}`);
  const env = envOf(place);
  const wanted = names.length ? names.filter(isHarnessName) : HARNESS_NAMES;
  return Promise.all(
    wanted.map(async (name) => {
      const h = HARNESSES[name];
      const started = performance.now();
      const dir = await installHarness(h, env);
      const version = await installedVersion(h, env);
      const installed: InstalledHarness = { harness: name, package: h.npmPackage, pinned: h.version, dir, version, seconds: (performance.now() - started) / 1000 };
      onInstalled?.(installed);
      return installed;
    }),
  );
}
