import { fitColumns, wrapWords } from '../util/index.js';
import { WIDE_HINT } from './screen.js';

/** A column of {@link fitTable}: header, and when it may leave (lower first; null never). */
export interface TableColumn {
  readonly header: string;
  readonly dropOrder: number | null;
}

/**
 * A left-aligned table fitted to `width` characters: columns leave by their `dropOrder`
 * until the rest fits (`fitColumns`), two spaces between columns, and under it a line (wrapped
 * to the width) naming the columns left out and that `--wide` shows every column. Pure.
 */
export function fitTable(columns: readonly TableColumn[], rows: readonly (readonly string[])[], width: number): string[] {
  const widths = columns.map((c, i) => Math.max(c.header.length, ...rows.map((row) => row[i]!.length)));
  const fit = fitColumns(columns.map((c, i) => ({ width: widths[i]!, dropOrder: c.dropOrder })), width, 2);
  const line = (cells: readonly string[]): string => fit.kept.map((i) => cells[i]!.padEnd(widths[i]!)).join('  ').trimEnd();
  const dropped = fit.dropped.map((i) => columns[i]!.header);
  return [
    line(columns.map((c) => c.header)),
    ...rows.map(line),
    ...(dropped.length === 0 ? [] : wrapWords(`left out to fit ${width} columns: ${dropped.join(', ')}; ${WIDE_HINT}`, width)),
  ];
}

/**
 * `name  description` lines with the names padded to `nameWidth`, the descriptions wrapped
 * under themselves to fit `width`; on a screen too narrow for that, each description on lines
 * of its own below its name, indented by four. Pure.
 */
export function fitDefinitions(items: readonly { name: string; text: string }[], nameWidth: number, width: number): string[] {
  const indent = nameWidth + 1;
  return items.flatMap(({ name, text }) => {
    if (`${name.padEnd(nameWidth)} ${text}`.length <= width) return [`${name.padEnd(nameWidth)} ${text}`];
    if (width - indent >= 30) {
      const [first, ...rest] = wrapWords(text, width - indent);
      return [`${name.padEnd(nameWidth)} ${first ?? ''}`, ...rest.map((l) => `${' '.repeat(indent)}${l}`)];
    }
    return [name, ...wrapWords(text, width - 4).map((l) => `    ${l}`)];
  });
}
