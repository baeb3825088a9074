/** One line of a hunk, with its numbers in the old and the new file. */
export interface DiffLine {
  /** `add` `+`, `del` `-`, `ctx` unchanged, `note` git's `\ No newline at end of file`. */
  readonly kind: 'add' | 'del' | 'ctx' | 'note';
  /** The line without its marker. */
  readonly text: string;
  /** Line number in the old file (del, ctx), else null. */
  readonly oldNo: number | null;
  /** Line number in the new file (add, ctx), else null. */
  readonly newNo: number | null;
}

export interface DiffHunk {
  /** The `@@ -a,b +c,d @@ context` line. */
  readonly header: string;
  readonly lines: readonly DiffLine[];
}

/** One file of a `git diff`. */
export interface DiffFile {
  /** Path before (null for a new file) and after (null for a deleted one), unquoted. */
  readonly oldPath: string | null;
  readonly newPath: string | null;
  readonly status: 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';
  /** `GIT binary patch` or `Binary files … differ`: no lines to show. */
  readonly binary: boolean;
  /** `old mode 100644` → `new mode 100755`, as `100644 → 100755`; null when unchanged. */
  readonly modeChange: string | null;
  readonly hunks: readonly DiffHunk[];
  /** `+` and `-` lines over all hunks. */
  readonly added: number;
  readonly removed: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** A file while its lines are read. */
interface FileBuilder extends Omit<Mutable<DiffFile>, 'hunks'> {
  readonly hunks: { header: string; lines: DiffLine[] }[];
  oldMode: string | null;
  newMode: string | null;
  /** In the `GIT binary patch` data: nothing more to read until the next file. */
  inBinary: boolean;
}

/**
 * The files of a `git diff --binary` patch (as `captureChange` stores it), with their hunks
 * and line numbers. Lenient: text before the first `diff --git` and lines it does not know
 * are skipped, a hunk cut short ends where the text does. Pure.
 */
export function parseDiff(patch: string): DiffFile[] {
  const files: FileBuilder[] = [];
  let oldNo = 0;
  let newNo = 0;
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    if (line.startsWith('diff --git ')) {
      const paths = splitGitPaths(line.slice('diff --git '.length));
      files.push({ oldPath: paths?.[0] ?? null, newPath: paths?.[1] ?? null, status: 'modified', binary: false, modeChange: null, hunks: [], added: 0, removed: 0, oldMode: null, newMode: null, inBinary: false });
      continue;
    }
    const file = files.at(-1);
    if (file === undefined || file.inBinary) continue;
    const start = HUNK.exec(line);
    if (start) {
      file.hunks.push({ header: line, lines: [] });
      [oldNo, newNo] = [Number(start[1]), Number(start[2])];
      continue;
    }
    const hunk = file.hunks.at(-1);
    if (hunk === undefined) {
      readHeaderLine(file, line);
      continue;
    }
    const marker = line[0];
    if (marker === '+') {
      hunk.lines.push({ kind: 'add', text: line.slice(1), oldNo: null, newNo: newNo++ });
      file.added += 1;
    } else if (marker === '-') {
      hunk.lines.push({ kind: 'del', text: line.slice(1), oldNo: oldNo++, newNo: null });
      file.removed += 1;
    } else if (marker === ' ' || line === '') {
      hunk.lines.push({ kind: 'ctx', text: line.slice(1), oldNo: oldNo++, newNo: newNo++ });
    } else if (marker === '\\') {
      hunk.lines.push({ kind: 'note', text: line.slice(1).trim(), oldNo: null, newNo: null });
    }
  }
  return files.map(({ oldMode, newMode, inBinary, ...file }) => ({
    ...file,
    modeChange: oldMode !== null && newMode !== null ? `${oldMode} → ${newMode}` : null,
  }));
}

/** Applies one extended header line (between `diff --git` and the first hunk) to `file`. */
function readHeaderLine(file: FileBuilder, line: string): void {
  const rest = (prefix: string): string | null => (line.startsWith(prefix) ? line.slice(prefix.length) : null);
  let value: string | null;
  if (line.startsWith('new file mode')) [file.status, file.oldPath] = ['added', null];
  else if (line.startsWith('deleted file mode')) [file.status, file.newPath] = ['deleted', null];
  else if ((value = rest('rename from ')) !== null) [file.status, file.oldPath] = ['renamed', unquote(value)];
  else if ((value = rest('rename to ')) !== null) [file.status, file.newPath] = ['renamed', unquote(value)];
  else if ((value = rest('copy from ')) !== null) [file.status, file.oldPath] = ['copied', unquote(value)];
  else if ((value = rest('copy to ')) !== null) [file.status, file.newPath] = ['copied', unquote(value)];
  else if ((value = rest('old mode ')) !== null) file.oldMode = value;
  else if ((value = rest('new mode ')) !== null) file.newMode = value;
  else if (line.startsWith('Binary files ')) file.binary = true;
  else if (line === 'GIT binary patch') [file.binary, file.inBinary] = [true, true];
}

/** `a/x b/y` (or C-quoted `"a/x y" "b/…"`) → `[x, y]`; null when it does not split. */
function splitGitPaths(text: string): [string, string] | null {
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(text);
  const pair = quoted ? [quoted[1]!, quoted[2]!] : splitUnquoted(text);
  if (!pair) return null;
  const [a, b] = pair.map(unquote) as [string, string];
  return [a.replace(/^a\//, ''), b.replace(/^b\//, '')];
}

/** `a/my file b/my file`: the two halves are the same length when the path did not change. */
function splitUnquoted(text: string): [string, string] | null {
  const half = (text.length - 1) / 2;
  if (Number.isInteger(half) && text[half] === ' ') return [text.slice(0, half), text.slice(half + 1)];
  const at = text.indexOf(' b/');
  return at < 0 ? null : [text.slice(0, at), text.slice(at + 1)];
}

const ESCAPES: Readonly<Record<string, number>> = { n: 10, t: 9, '"': 34, '\\': 92, a: 7, b: 8, f: 12, r: 13, v: 11 };

/** A path git C-quoted (`"t\303\251st.txt"`) as text; an unquoted one as it is. */
export function unquote(text: string): string {
  if (!(text.length >= 2 && text.startsWith('"') && text.endsWith('"'))) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      const next = body[i + 1] ?? '';
      bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
