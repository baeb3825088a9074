/**
 * Quotes one argument for a POSIX shell (`sh -c`): single quotes, with embedded single quotes
 * written as `'\''`. Safe for any string, including spaces, `$` and newlines.
 */
export function quoteShellArg(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * Quotes one option for `NODE_OPTIONS`, which Node splits on spaces but reads double-quoted
 * strings (with `\` escapes) as one option. Plain options are left as they are.
 */
export function quoteNodeOption(value: string): string {
  if (!/[\s"\\]/.test(value)) return value;
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}
