import { escapeHtml } from './escape-html.js';
import { parseDiff, type DiffFile, type DiffLine } from './parse-diff.js';
import { plural } from '../render/plural.js';

/** Options of {@link renderDiff}. */
export interface DiffOptions {
  /** Diff lines (hunk headers and lines) to draw at most; the rest is cut with a note. */
  readonly maxLines: number;
  /** Where the whole change is, for the cut note (the order folder's `change` file, as `orderFilesInResults` names it). */
  readonly whole: string;
}

/** What {@link renderDiff} drew. */
export interface RenderedDiff {
  readonly html: string;
  /** Diff lines drawn (counted against `maxLines`), so a page can share one budget among its diffs. */
  readonly lines: number;
}

/** A line longer than this is cut on the page (a minified file would fill it). */
const MAX_LINE_CHARS = 1000;
/** Files past the cut are listed by name, up to this many. */
const MAX_LISTED_FILES = 100;

const MARKS: Readonly<Record<DiffLine['kind'], string>> = { add: '+', del: '-', ctx: ' ', note: '\\' };

/**
 * A `git diff` as HTML: per file a header (path, or old → new for a rename; new, deleted,
 * renamed, copied, binary, mode change; `+added −removed`), then its hunks as rows with the
 * old and new line numbers, a `+`/`-` marker column (readable without colour) and the line,
 * classed `diff-add` / `diff-del` / `diff-ctx`. After `maxLines` the rest is cut: a note says
 * how many lines in how many files were not drawn and where the whole change is, and the
 * files not reached are listed by name. Every text is escaped. Pure.
 */
export function renderDiff(patch: string, options: DiffOptions): RenderedDiff {
  const files = parseDiff(patch);
  if (patch.trim() === '') return { html: '<p class="diff-empty">No change.</p>', lines: 0 };
  if (files.length === 0) return renderRaw(patch, options);
  const total = files.reduce((n, f) => n + lineCount(f), 0);
  let budget = options.maxLines;
  const drawn: string[] = [];
  let cutAt = files.length;
  for (const [i, file] of files.entries()) {
    if (budget <= 0 && lineCount(file) > 0) {
      cutAt = i;
      break;
    }
    const { html, used } = renderFile(file, budget);
    drawn.push(html);
    budget -= used;
    if (used < lineCount(file)) {
      cutAt = i + 1;
      break;
    }
  }
  const shown = options.maxLines - Math.max(budget, 0);
  const rest = files.slice(cutAt);
  const cut = shown < total ? renderCut({ shown, total, rest, whole: options.whole }) : '';
  const summary = `<p class="diff-summary">${files.length} ${files.length === 1 ? 'file' : 'files'} changed, ${plural(sum(files, 'added'), 'line')} added, ${plural(sum(files, 'removed'), 'line')} removed.</p>`;
  return { html: `<div class="diff">${summary}${drawn.join('')}${cut}</div>`, lines: shown };
}

/** A change that is no git diff, as text: its first `maxLines` lines. */
function renderRaw(patch: string, options: DiffOptions): RenderedDiff {
  const lines = patch.replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, Math.max(options.maxLines, 0));
  const cut = shown.length < lines.length ? `<div class="diff-cut"><p><strong>Diff cut:</strong> ${shown.length} of ${lines.length} lines drawn. The whole change is ${escapeHtml(options.whole)}.</p></div>` : '';
  return { html: `<div class="diff"><p class="diff-note">Not a git diff: shown as text.</p><pre>${escapeHtml(shown.join('\n'))}</pre>${cut}</div>`, lines: shown.length };
}

function renderFile(file: DiffFile, budget: number): { html: string; used: number } {
  const rows: string[] = [];
  let used = 0;
  /** Adds a row while the budget lasts; false (and the cut row) once it is spent. */
  const take = (row: string): boolean => {
    if (used >= budget) {
      rows.push('<tr class="diff-cut-row"><td colspan="4">… cut here (see the note below)</td></tr>');
      return false;
    }
    rows.push(row);
    used += 1;
    return true;
  };
  drawing: for (const hunk of file.hunks) {
    if (!take(`<tr class="diff-hunk"><td colspan="4">${escapeHtml(hunk.header)}</td></tr>`)) break;
    for (const line of hunk.lines) if (!take(renderLine(line))) break drawing;
  }
  const body = file.binary
    ? '<p class="diff-note">Binary file: its content is not drawn.</p>'
    : rows.length === 0
      ? '<p class="diff-note">No lines changed.</p>'
      : `<table class="diff-lines"><tbody>${rows.join('')}</tbody></table>`;
  return { html: `<div class="diff-file">${renderFileHead(file)}${body}</div>`, used };
}

function renderLine(line: DiffLine): string {
  const n = (value: number | null): string => (value === null ? '' : String(value));
  const text = line.text.length > MAX_LINE_CHARS ? `${line.text.slice(0, MAX_LINE_CHARS)} … (${line.text.length - MAX_LINE_CHARS} more characters)` : line.text;
  return `<tr class="diff-${line.kind}"><td class="diff-ln">${n(line.oldNo)}</td><td class="diff-ln">${n(line.newNo)}</td><td class="diff-mark">${MARKS[line.kind]}</td><td class="diff-code">${escapeHtml(text)}</td></tr>`;
}

function renderFileHead(file: DiffFile): string {
  const name = file.oldPath !== null && file.newPath !== null && file.oldPath !== file.newPath ? `${file.oldPath} → ${file.newPath}` : (file.newPath ?? file.oldPath ?? '?');
  const tags = [
    ...(file.status === 'added' ? ['new'] : file.status === 'modified' ? [] : [file.status]),
    ...(file.binary ? ['binary'] : []),
    ...(file.modeChange ? [`mode ${file.modeChange}`] : []),
  ];
  return `<div class="diff-file-head"><code class="diff-path">${escapeHtml(name)}</code>${tags.map((t) => ` <span class="diff-tag">${escapeHtml(t)}</span>`).join('')} ${renderStat(file)}</div>`;
}

function renderStat(file: DiffFile): string {
  return `<span class="diff-stat"><span class="diff-count-add">+${file.added}</span> <span class="diff-count-del">−${file.removed}</span></span>`;
}

function renderCut(cut: { shown: number; total: number; rest: readonly DiffFile[]; whole: string }): string {
  const { shown, total, rest, whole } = cut;
  const listed = rest.slice(0, MAX_LISTED_FILES).map((f) => `<li><code>${escapeHtml(f.newPath ?? f.oldPath ?? '?')}</code> ${renderStat(f)}</li>`);
  const more = rest.length > MAX_LISTED_FILES ? `<li>and ${rest.length - MAX_LISTED_FILES} more files</li>` : '';
  const notReached = rest.length ? `<p>Files not reached:</p><ul class="diff-rest">${listed.join('')}${more}</ul>` : '';
  return `<div class="diff-cut"><p><strong>Diff cut:</strong> ${shown} of ${total} diff lines drawn, ${total - shown} not shown. The whole change is ${escapeHtml(whole)}.</p>${notReached}</div>`;
}

/** Hunk headers and lines of a file: what it costs of the budget. */
function lineCount(file: DiffFile): number {
  return file.hunks.reduce((n, h) => n + 1 + h.lines.length, 0);
}

function sum(files: readonly DiffFile[], key: 'added' | 'removed'): number {
  return files.reduce((n, f) => n + f[key], 0);
}

