import type { CliIo } from './io.js';

/** The flags of every command that prints a table: `--wide` and `--no-color` (commander's `color: false`). */
export interface ScreenFlags {
  /** Every column at full width, as off a terminal. */
  readonly wide?: boolean;
  /** False with `--no-color`. */
  readonly color?: boolean;
}

/** How stdout looks: the width to fit (undefined: do not fit) and whether to style with ANSI escapes. */
export interface Screen {
  readonly width: number | undefined;
  readonly color: boolean;
}

/** What stands under a table printed without --explain. */
export const EXPLAIN_HINT = 'How each number is counted: add --explain.';

/** What the line naming the columns left out adds. */
export const WIDE_HINT = '--wide shows every column';

/**
 * The screen behind stdout. Off a terminal (a pipe, a file): no fitting and no colour, so
 * scripts and files see the full output. On a terminal: the width is the stream's `columns`,
 * else `$COLUMNS`, unless `--wide`; colour unless `--no-color` or `$NO_COLOR` is set to
 * anything non-empty (no-color.org).
 */
export function screenOf(io: CliIo, flags: ScreenFlags): Screen {
  if (io.stdout.isTTY !== true) return { width: undefined, color: false };
  const color = flags.color !== false && !io.env.NO_COLOR;
  if (flags.wide === true) return { width: undefined, color };
  return { width: positive(io.stdout.columns) ?? positive(Number(io.env.COLUMNS)), color };
}

function positive(n: number | undefined): number | undefined {
  return n !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
}
