/*
 * Lines to review: what a reviewer must read of a change, counted so that hiding code from the
 * count costs at least as much as showing it.
 *
 *   - every line of the change's text, added or removed, whatever its file (binary content too:
 *     lines are counted as text, whatever .gitattributes says);
 *   - a line ends at every line terminator a language bakeoff grades honours: LF, CRLF, a lone
 *     CR (Python, JavaScript), U+2028 and U+2029 (JavaScript) — git ends lines at LF only, so
 *     code written "on one line" with the others counts as the lines it is;
 *   - a line longer than a reviewer's screen counts once per SCREEN_WIDTH characters (rounded up);
 *   - the name of every file the change adds, and of every folder it creates, counts once per
 *     NAME_WIDTH bytes (rounded up): a name is dense (an encoded payload packs code into it with
 *     no indentation and no line breaks), so it is counted at the width of a line of code;
 *   - a symbolic link's target is its content (git shows it as the file's one line), so it counts
 *     like text;
 *   - a mode change (a file made executable, a file turned into a link) counts one line.
 * The plain count (git's --numstat: lines between LF, every file as text) is kept beside it.
 */

/** Characters of one line a reviewer's screen shows: a longer line counts once per this many. */
export const SCREEN_WIDTH = 200;
/** Bytes of a file or folder name that count as one line. */
export const NAME_WIDTH = 32;

/** Every line terminator but LF (git's own): CR (lone, or before LF: stripped first), U+2028, U+2029. */
const OTHER_TERMINATORS = /\r|\u2028|\u2029/;

/** What a change asks a reviewer to read, and git's plain count beside it. */
export interface ReviewLines {
  readonly added: number;
  readonly removed: number;
}

/**
 * Lines one line of a diff counts (its text, without git's LF): one per segment between line
 * terminators, each segment longer than SCREEN_WIDTH characters counting once per SCREEN_WIDTH.
 * A CR just before git's LF is the CRLF's and ends nothing more.
 */
export function linesOfText(line: string): number {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.length <= SCREEN_WIDTH && !OTHER_TERMINATORS.test(text)) return 1;
  let lines = 0;
  for (const segment of text.split(OTHER_TERMINATORS)) lines += widthLines(segment);
  return lines;
}

function widthLines(segment: string): number {
  if (segment.length <= SCREEN_WIDTH) return 1;
  let chars = 0;
  for (const _ of segment) chars++;
  return Math.max(1, Math.ceil(chars / SCREEN_WIDTH));
}

/** Lines a file or folder name counts: once per NAME_WIDTH bytes of it (at least one). */
export function linesOfName(name: string): number {
  return Math.max(1, Math.ceil(Buffer.byteLength(name, 'utf8') / NAME_WIDTH));
}

/** One entry of `git diff --raw -z`: modes and status of a path. */
export interface RawEntry {
  readonly srcMode: string;
  readonly dstMode: string;
  /** A (added), D (deleted), M (modified), T (type changed). */
  readonly status: string;
  readonly path: string;
}

/** Reads `git diff --raw -z` output (`:<src mode> <dst mode> <src> <dst> <status>\0<path>\0` …). */
export function parseRawDiff(z: string): RawEntry[] {
  const fields = z.split('\0');
  const out: RawEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const match = /^:(\d+) (\d+) \S+ \S+ ([A-Z])\d*$/.exec(fields[i]!);
    if (!match) break;
    out.push({ srcMode: match[1]!, dstMode: match[2]!, status: match[3]!, path: fields[i + 1]! });
  }
  return out;
}

/**
 * Lines added and removed in a unified diff (`git diff -U0`, every file as text), counted with
 * {@link linesOfText}. Hunk headers say how many lines follow, so a content line that looks like
 * a header (`+++ x`) is still content; `\ No newline at end of file` counts nothing.
 */
export function linesOfDiff(diff: string): ReviewLines {
  let added = 0;
  let removed = 0;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of diff.split('\n')) {
    if (oldLeft > 0 || newLeft > 0) {
      const kind = line[0];
      if (kind === '+') {
        added += linesOfText(line.slice(1));
        newLeft--;
      } else if (kind === '-') {
        removed += linesOfText(line.slice(1));
        oldLeft--;
      } else if (kind === ' ') {
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
    }
  }
  return { added, removed };
}

/**
 * What the change's names and modes add to review: every name of a file the change adds and of
 * every folder it creates (a folder not in `existingDirs`, counted once), and one line per mode
 * or type change.
 */
export function linesOfNames(entries: readonly RawEntry[], existingDirs: ReadonlySet<string>): number {
  let lines = 0;
  const newDirs = new Set<string>();
  for (const entry of entries) {
    if (entry.status === 'T' || (entry.status === 'M' && entry.srcMode !== entry.dstMode)) lines += 1;
    if (entry.status !== 'A') continue;
    const parts = entry.path.split('/');
    lines += linesOfName(parts.at(-1)!);
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!existingDirs.has(dir)) newDirs.add(dir);
    }
  }
  for (const dir of newDirs) lines += linesOfName(dir.slice(dir.lastIndexOf('/') + 1));
  return lines;
}
