import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fleetLine, report, type ReportOutcome } from '../../api/report.js';
import { UserError } from '../../errors.js';
import { createNotes, printNote } from '../notes.js';
import type { ReportFlags } from '../command-options.js';
import { EXIT, placeOf, type CliIo } from '../io.js';
import { EXPLAIN_HINT, screenOf, WIDE_HINT, type Screen } from '../screen.js';


/**
 * `bakeoff report <results>`: the leaderboard of a results folder, or a paired comparison, as a
 * table, markdown, JSON or one self-contained HTML file (`--format html`, the site's page).
 */
export async function reportCommand(dir: string, flags: ReportFlags, io: CliIo): Promise<number> {
  if (flags.compare !== undefined && flags.compare.length !== 2) {
    throw new UserError(`--compare expects two agent ids (A B), got ${flags.compare.length}: ${flags.compare.join(' ')}`);
  }
  const notes = createNotes(io.stderr);
  const outcome = await report({
    results: dir,
    ...placeOf(io),
    ...(flags.compare ? { compare: [flags.compare[0]!, flags.compare[1]!] as const } : {}),
    onEvent: (event) => printNote(notes, event),
  });
  const text = await render(outcome, flags, flags.out ? { width: undefined, color: false } : screenOf(io, flags));
  if (flags.out) {
    await writeFile(path.resolve(io.cwd, flags.out), text.endsWith('\n') ? text : text + '\n');
    io.stderr.write(`wrote ${flags.out}\n`);
  } else {
    io.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }
  return EXIT.ok;
}

/** The outcome in the asked format; each renderer is loaded only when it is the one asked for. */
async function render(outcome: ReportOutcome, flags: ReportFlags, screen: Screen): Promise<string> {
  if (flags.format === 'html') {
    const { renderHtmlReport } = await import('../../report/site/render-html-report.js');
    return renderHtmlReport({ view: outcome.view, runs: outcome.runs, ...(outcome.kind === 'comparison' ? { comparison: outcome.comparison } : {}) });
  }
  if (outcome.kind === 'comparison') {
    if (flags.format === 'json') return (await import('../../report/render/render-comparison-json.js')).renderComparisonJson(outcome.view, outcome.runs, outcome.comparison);
    if (flags.format === 'md') return (await import('../../report/render/render-comparison-markdown.js')).renderComparisonMarkdown(outcome.comparison);
    return (await import('../../report/render/render-comparison.js')).renderComparison(outcome.comparison);
  }
  const fleet = outcome.fleet;
  if (flags.format === 'json') {
    const json = (await import('../../report/render/render-json.js')).renderJson(outcome.view, outcome.runs);
    return fleet ? JSON.stringify({ ...(JSON.parse(json) as object), fleet }, null, 2) : json;
  }
  const text =
    flags.format === 'md'
      ? (await import('../../report/render/render-markdown.js')).renderMarkdown(outcome.view)
      : (await import('../../report/render/render-table.js')).renderTable(outcome.view, { ...screen, wideHint: WIDE_HINT, explain: flags.explain === true, explainHint: EXPLAIN_HINT }) +
        (flags.matrix === true ? `\n${(await import('../../report/render/render-matrix.js')).renderMatrix(outcome.view, screen.width)}\n` : '');
  return fleet ? `${text.replace(/\n$/, '')}\n\n${fleetLine(fleet)}\n` : text;
}
