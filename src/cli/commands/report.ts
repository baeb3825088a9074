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
    // the table and markdown are drawn from the view alone: each run is read only as far as the view needs
    viewOnly: flags.format === 'table' || flags.format === 'md',
    onEvent: (event) => printNote(notes, event),
  });
  if (flags.format === 'json' && outcome.kind === 'leaderboard') {
    // written run by run as it is made: 100k runs are over 100 MB, never one string
    const { renderJsonChunks } = await import('../../report/render/render-json.js');
    const chunks = renderJsonChunks(outcome.view, outcome.runs, outcome.fleet ? { fleet: outcome.fleet } : {});
    if (flags.out) {
      await writeFile(path.resolve(io.cwd, flags.out), chunks);
      io.stderr.write(`wrote ${flags.out}\n`);
    } else {
      for (const chunk of chunks) await writeOut(io.stdout, chunk);
    }
    return EXIT.ok;
  }
  const text = await render(outcome, flags, flags.out ? { width: undefined, color: false } : screenOf(io, flags));
  if (flags.out) {
    await writeFile(path.resolve(io.cwd, flags.out), text.endsWith('\n') ? text : text + '\n');
    io.stderr.write(`wrote ${flags.out}\n`);
  } else {
    io.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }
  return EXIT.ok;
}

/** One piece of the output, waiting while the reader is behind (a pipe to a slow reader holds no more than its buffer). */
async function writeOut(stdout: NodeJS.WritableStream, chunk: string): Promise<void> {
  if (stdout.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      stdout.off('drain', done);
      stdout.off('error', done);
      if (error) reject(error);
      else resolve();
    };
    stdout.once('drain', done);
    stdout.once('error', done);
  });
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
  const text =
    flags.format === 'md'
      ? (await import('../../report/render/render-markdown.js')).renderMarkdown(outcome.view)
      : (await import('../../report/render/render-table.js')).renderTable(outcome.view, { ...screen, wideHint: WIDE_HINT, explain: flags.explain === true, explainHint: EXPLAIN_HINT }) +
        (flags.matrix === true ? `\n${(await import('../../report/render/render-matrix.js')).renderMatrix(outcome.view, screen.width)}\n` : '');
  return fleet ? `${text.replace(/\n$/, '')}\n\n${fleetLine(fleet)}\n` : text;
}
