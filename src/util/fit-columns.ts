/** A column as {@link fitColumns} sees it: how wide it is and when it may leave. */
export interface FitColumn {
  /** Characters: the widest of its header and cells. */
  readonly width: number;
  /** Lower leaves first; ties leave right to left; null never leaves. */
  readonly dropOrder: number | null;
}

/** What {@link fitColumns} decided: the indices kept (left to right) and left out (in the order they left). */
export interface ColumnFit {
  readonly kept: number[];
  readonly dropped: number[];
  /** Width of the kept columns with their gaps; can still exceed the limit when only columns that never leave are left. */
  readonly width: number;
}

/** Width of a row of these columns: their widths plus `gap` between each two. */
export function rowWidth(widths: readonly number[], gap: number): number {
  return widths.length === 0 ? 0 : widths.reduce((a, b) => a + b, 0) + gap * (widths.length - 1);
}

/**
 * Which columns of a table fit in `maxWidth` characters: columns leave one at a time, lowest
 * `dropOrder` first, until the rest fits or only columns that never leave remain. Greedy and
 * predictable: a column never comes back once one of higher order has left. Pure.
 */
export function fitColumns(columns: readonly FitColumn[], maxWidth: number, gap: number): ColumnFit {
  const order = columns
    .map((column, index) => ({ index, drop: column.dropOrder }))
    .filter((c): c is { index: number; drop: number } => c.drop !== null)
    .sort((a, b) => a.drop - b.drop || b.index - a.index)
    .map((c) => c.index);
  const left = new Set<number>();
  const widthNow = (): number => rowWidth(columns.flatMap((c, i) => (left.has(i) ? [] : [c.width])), gap);
  for (const index of order) {
    if (widthNow() <= maxWidth) break;
    left.add(index);
  }
  return { kept: columns.flatMap((_, i) => (left.has(i) ? [] : [i])), dropped: order.filter((i) => left.has(i)), width: widthNow() };
}

/**
 * Greedy word wrap at `width`; continuation lines start with `indent`. A word longer than the
 * room gets a line of its own (never cut). Pure.
 */
export function wrapWords(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const prefix = lines.length === 0 ? '' : indent;
    if (line !== '' && prefix.length + line.length + 1 + word.length > width) {
      lines.push(prefix + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return line === '' ? lines : [...lines, (lines.length === 0 ? '' : indent) + line];
}
