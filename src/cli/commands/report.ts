import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../../errors.js';
import {
  comparePaired,
  renderComparison,
  renderComparisonJson,
  renderComparisonMarkdown,
  renderJson,
  renderMarkdown,
  renderTable,
  summarize,
} from '../../report/index.js';
import { describeHolder, openStore, readHolder } from '../../store/index.js';
import { judgeProcess } from '../../util/index.js';
import { createNotes } from '../notes.js';
import type { RunRecord } from '../../types.js';
import { EXIT, type CliIo, type OUTPUT_FORMATS } from '../io.js';


export interface ReportFlags {
  readonly format: (typeof OUTPUT_FORMATS)[number];
  readonly out?: string;
  /** Two agent ids: a paired comparison instead of the leaderboard. */
  readonly compare?: readonly string[];
}

/** `bakeoff report <results>`: the leaderboard of a results folder, or a paired comparison. */
export async function reportCommand(dir: string, flags: ReportFlags, io: CliIo): Promise<number> {
  if (flags.compare !== undefined && flags.compare.length !== 2) {
    throw new UserError(`--compare expects two agent ids (A B), got ${flags.compare.length}: ${flags.compare.join(' ')}`);
  }
  const store = openStore(path.resolve(io.cwd, dir), { create: false });
  let text: string;
  try {
    // no lock: a report only reads, and SQLite shows it whole runs only; but say when a bake is still adding them
    const holder = readHolder(store.dir);
    if (holder && holder.command === 'run' && judgeProcess(holder) === 'alive') {
      createNotes(io.stderr).note(`a bake is still running in ${dir} (${describeHolder(holder)}): this report shows the runs finished so far`);
    }
    const runs = store.listRuns();
    if (runs.length === 0) throw new UserError(`${dir}: no finished runs yet`);
    const controlsByDigest = store.controls();
    const planned = store.bakes().find((b) => b.suiteHash === runs[0]!.suiteHash)?.tasks ?? undefined;
    text =
      flags.compare === undefined
        ? renderLeaderboard(dir, runs, [...controlsByDigest.values()], flags, io, planned)
        : renderPaired(dir, runs, controlsByDigest, flags as ReportFlags & { compare: readonly [string, string] });
  } finally {
    store.close();
  }
  if (flags.out) {
    await writeFile(path.resolve(io.cwd, flags.out), text.endsWith('\n') ? text : text + '\n');
    io.stderr.write(`wrote ${flags.out}\n`);
  } else {
    io.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }
  return EXIT.ok;
}

function standardRuns(controls: unknown): number {
  return (controls as { runsPerTask?: number } | undefined)?.runsPerTask ?? 2;
}

function renderLeaderboard(dir: string, runs: readonly RunRecord[], controls: readonly unknown[], flags: ReportFlags, io: CliIo, tasks?: readonly string[]): string {
  const view = summarize(runs, { standardRunsPerTask: standardRuns(controls[0]), controls: controls.length === 1 ? controls[0] : controls, ...(tasks ? { tasks } : {}) });
  if (view.mixed.length > 0) {
    const what = view.mixed.map((m) => `${m.field} (${m.values.join(' vs ')})`).join('; ');
    throw new UserError(`${dir}: refusing to rank runs that differ in ${what}; report each suite or control set from its own results folder`);
  }
  if (flags.format === 'json') return renderJson(view, runs);
  if (flags.format === 'md') return renderMarkdown(view);
  return renderTable(view, { color: !flags.out && io.stdout.isTTY === true });
}

/** `--compare A B`: refused (exit 2) for unknown ids or runs that must not be compared. */
function renderPaired(
  dir: string,
  runs: readonly RunRecord[],
  controlsByDigest: ReadonlyMap<string, unknown>,
  flags: ReportFlags & { compare: readonly [string, string] },
): string {
  const [a, b] = flags.compare;
  const digest = runs.find((run) => run.agent.id === a)?.controlsDigest;
  const controls = digest === undefined ? undefined : controlsByDigest.get(digest);
  const result = comparePaired(runs, { a, b, controls });
  if (!result.ok) throw new UserError(`${dir}: --compare: ${result.reason}`);
  const pairRuns = runs.filter((run) => run.agent.id === a || run.agent.id === b);
  if (flags.format === 'json') {
    const view = summarize(pairRuns, { standardRunsPerTask: standardRuns(controls), controls });
    return renderComparisonJson(view, pairRuns, result.comparison);
  }
  return flags.format === 'md' ? renderComparisonMarkdown(result.comparison) : renderComparison(result.comparison);
}
