import { UserError } from '../../errors.js';
import { cachedLevelSource, cachedProbeInstalled } from '../../agents/cached-probes.js';
import { orderLevels } from '../../agents/effort-levels.js';
import { exampleOf, expectedHarness, HARNESS_NAMES, HARNESSES, isHarnessName, type Harness as HarnessDef } from '../../agents/harnesses/index.js';
import { installDirOf, installedVersion, installHarness } from '../../agents/install-harness.js';
import { SPEC_FORMS } from '../../agents/spec-forms.js';
import { wrapWords } from '../../util/fit-columns.js';
import { mapBounded } from '../../util/map-bounded.js';
import { openProbeCache, type ProbeCache } from '../../util/probe-cache.js';
import { noAnswerText } from '../../util/probe-version.js';
import { cacheDir, EXIT, type CliIo } from '../io.js';
import { fitDefinitions, fitTable } from '../fit-table.js';
import { screenOf, type ScreenFlags } from '../screen.js';

const DESCRIPTIONS: Readonly<Record<(typeof SPEC_FORMS)[number], string>> = {
  gold: 'applies each order\'s reference change (must solve every admitted task)',
  noop: 'changes nothing (must fail every admitted task)',
  'patch:<file.jsonl>': 'grades changes made elsewhere: {"task","order","patch"} per line',
  'command:<shell command>': 'any program, run in the workspace with the prompt in $BAKEOFF_PROMPT_FILE',
  '<harness>:<model>[@effort]': 'a real coding-agent CLI (below) driving a model at an effort level; @lowest / @highest pick from its levels',
};

/**
 * `bakeoff agents`: the agent specs bakeoff understands and, per harness, the pinned version,
 * the version installed, its wire format and effort levels. `bakeoff agents install [h...]`
 * installs the pinned CLIs from npm (every registered one when none is named). Each harness is
 * listed with its example model, to show its effort levels (levels can differ per model).
 * Versions and built-in catalogs come from the probe cache while each install is unchanged
 * (starting five Node CLIs takes seconds); `agents install` always asks the CLI.
 */
export async function agentsCommand(action: string | undefined, names: readonly string[], flags: { json: boolean } & ScreenFlags, io: CliIo): Promise<number> {
  if (action === 'install') return installHarnesses(names, flags, io);
  if (action !== undefined && action !== 'list') throw new UserError(`agents: expected "install" or "list", received ${JSON.stringify(action)}`);
  const specs = SPEC_FORMS.map((spec) => ({ spec, description: DESCRIPTIONS[spec] }));
  const probes = openProbeCache(cacheDir(io));
  // two probes at a time: five CLIs started at once on a small busy machine miss their clocks (decision 011);
  // an install whose version is kept in the probe cache is not started at all
  const harnesses = await mapBounded(HARNESS_NAMES, 2, async (name) => {
    const h = HARNESSES[name];
    const model = exampleOf(h).model;
    const probe = await cachedProbeInstalled(h, io.env, probes);
    const installed = probe.kind === 'installed' ? probe.version : null;
    const noAnswer = probe.kind === 'no-answer' ? { noAnswer: noAnswerText(probe) } : {};
    return { harness: name, package: h.npmPackage, pinned: h.version, installed, ...noAnswer, dir: installDirOf(h, io.env), wireFormat: h.wireFormat(model), exampleModel: model, ...(await levelsOf(h, model, probe.kind !== 'missing', io.env, probes)) };
  });
  if (flags.json) {
    io.stdout.write(JSON.stringify({ agents: specs, harnesses }, null, 2) + '\n');
    return EXIT.ok;
  }
  const { width } = screenOf(io, flags);
  const install = 'install the pinned CLIs with: npx bakeoff agents install [harness...]';
  const installNote = harnesses.some((h) => h.installed === null && h.noAnswer === undefined) ? ['', ...(width === undefined ? [install] : wrapWords(install, width))] : [];
  const busy = harnesses.filter((h) => h.noAnswer !== undefined).map((h) => `${h.harness}: installed, but ${h.noAnswer}; ask again when the machine is less busy`);
  for (const line of busy) io.stderr.write(`bakeoff: ${line}\n`);
  if (width === undefined || wideLines(specs, harnesses).every((line) => line.length <= width)) {
    io.stdout.write([...wideLines(specs, harnesses), '', ...sourceLines(harnesses, undefined), ...installNote].join('\n') + '\n');
    return EXIT.ok;
  }
  const definitions = fitDefinitions(specs.map((r) => ({ name: r.spec, text: r.description })), 28, width);
  const table = fitTable(
    HARNESS_COLUMNS,
    harnesses.map((h) => [h.harness, h.package, h.pinned, installedCell(h), h.wireFormat, h.efforts.join(', ') || '(none)', h.exampleModel]),
    width,
  );
  io.stdout.write([...definitions, '', ...table, '', ...sourceLines(harnesses, width), ...installNote].join('\n') + '\n');
  return EXIT.ok;
}

/** The example model's levels and where they come from: the installed CLI's own catalog, or bakeoff's table. */
async function levelsOf(h: HarnessDef, model: string, installed: boolean, env: NodeJS.ProcessEnv, probes: ProbeCache): Promise<{ efforts: readonly string[]; effortsFrom: string }> {
  if (h.catalog && !installed) return { efforts: [], effortsFrom: 'the installed CLI\'s own model catalog (not installed: nothing to read yet)' };
  const source = await cachedLevelSource(h, env, probes);
  return { efforts: orderLevels(source.levels(model) ?? []), effortsFrom: source.source };
}

/** Per harness, where its effort levels come from. */
function sourceLines(harnesses: readonly Harness[], width: number | undefined): string[] {
  const lines = ['effort levels come from:', ...harnesses.map((h) => `  ${h.harness}: ${h.effortsFrom}`)];
  return width === undefined ? lines : lines.flatMap((line) => wrapWords(line, width));
}

/**
 * The columns of the harness table on a screen too narrow for the full lines, in the order of
 * the cells: harness, pinned and installed version always stay; the wire format leaves first,
 * then the npm package, then the example model, then the effort levels.
 */
const HARNESS_COLUMNS = [
  { header: 'harness', dropOrder: null },
  { header: 'package', dropOrder: 1 },
  { header: 'pinned', dropOrder: null },
  { header: 'installed', dropOrder: null },
  { header: 'wire format', dropOrder: 0 },
  { header: 'effort levels', dropOrder: 3 },
  { header: 'example model', dropOrder: 2 },
];

/** The full lines, as off a terminal and with --wide: specs and descriptions, then the harness table. */
function wideLines(specs: readonly { spec: string; description: string }[], harnesses: readonly Harness[]): string[] {
  return [
    ...specs.map((r) => `${r.spec.padEnd(28)} ${r.description}`),
    '',
    `${'harness'.padEnd(12)} ${'pinned'.padEnd(45)} ${'installed'.padEnd(14)} ${'wire format'.padEnd(19)} effort levels (for the example model)`,
    ...harnesses.map(
      (h) => `${h.harness.padEnd(12)} ${`${h.package}@${h.pinned}`.padEnd(45)} ${installedCell(h).padEnd(14)} ${h.wireFormat.padEnd(19)} ${h.efforts.join(', ') || '(none)'}  (${h.exampleModel})`,
    ),
  ];
}

/** The installed column: the version, `no`, or `no answer` when the CLI is there but did not answer in time. */
function installedCell(h: Harness): string {
  return h.installed ?? (h.noAnswer !== undefined ? 'no answer' : 'no');
}

interface Harness {
  readonly harness: string;
  readonly package: string;
  readonly pinned: string;
  readonly installed: string | null;
  /** Set when the CLI is installed but did not answer `--version` in time (a busy machine), e.g. `did not answer in 120 s (the machine is busy?)`. */
  readonly noAnswer?: string;
  readonly wireFormat: string;
  readonly exampleModel: string;
  readonly efforts: readonly string[];
  readonly effortsFrom: string;
}

async function installHarnesses(names: readonly string[], flags: { json: boolean }, io: CliIo): Promise<number> {
  const unknown = names.filter((n) => !isHarnessName(n));
  if (unknown.length) throw new UserError(`agents install: expected harness names, each ${expectedHarness(unknown[0]!)}, received ${unknown.map((n) => JSON.stringify(n)).join(', ')}`);
  const wanted = names.length ? names.filter(isHarnessName) : HARNESS_NAMES;
  const results = await Promise.all(
    wanted.map(async (name) => {
      const h = HARNESSES[name];
      const started = performance.now();
      const dir = await installHarness(h, io.env);
      const version = await installedVersion(h, io.env);
      if (!flags.json) io.stderr.write(`${name}: ${h.npmPackage}@${h.version} in ${dir} (reports ${version ?? 'no version'}; ${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
      return { harness: name, dir, version };
    }),
  );
  if (flags.json) io.stdout.write(JSON.stringify({ installed: results }, null, 2) + '\n');
  return results.every((r) => r.version !== null) ? EXIT.ok : EXIT.infra;
}
