import { UserError } from '../../errors.js';
import { installAgents, listAgents, type HarnessListing as Harness } from '../../api/agents.js';
import { wrapWords } from '../../util/fit-columns.js';
import { EXIT, placeOf, type CliIo } from '../io.js';
import { fitDefinitions, fitTable } from '../fit-table.js';
import type { AgentsFlags } from '../command-options.js';
import { screenOf } from '../screen.js';

/**
 * `bakeoff agents`: the agent specs bakeoff understands and, per harness, the pinned version,
 * the version installed, its wire format and effort levels. `bakeoff agents install [h...]`
 * installs the pinned CLIs from npm (every registered one when none is named). Each harness is
 * listed with its example model, to show its effort levels (levels can differ per model).
 * Versions and built-in catalogs come from the probe cache while each install is unchanged
 * (starting five Node CLIs takes seconds); `agents install` always asks the CLI.
 */
export async function agentsCommand(action: string | undefined, names: readonly string[], flags: AgentsFlags, io: CliIo): Promise<number> {
  if (action === 'install') return installHarnesses(names, flags, io);
  if (action !== undefined && action !== 'list') throw new UserError(`agents: expected "install" or "list", received ${JSON.stringify(action)}`);
  const { agents: specs, harnesses } = await listAgents(placeOf(io));
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

async function installHarnesses(names: readonly string[], flags: { json: boolean }, io: CliIo): Promise<number> {
  const results = await installAgents(names, placeOf(io), (h) => {
    if (!flags.json) io.stderr.write(`${h.harness}: ${h.package}@${h.pinned} in ${h.dir} (reports ${h.version ?? 'no version'}; ${h.seconds.toFixed(1)} s)\n`);
  });
  if (flags.json) io.stdout.write(JSON.stringify({ installed: results.map(({ harness, dir, version }) => ({ harness, dir, version })) }, null, 2) + '\n');
  return results.every((r) => r.version !== null) ? EXIT.ok : EXIT.infra;
}
