/*
 * A source's own fail-to-pass / pass-to-pass lists (a SWE-bench instance's) against what
 * admission found. The source names tests its way; bakeoff's ids are matched to them so:
 *
 *   - the same string: pytest node ids (`tests/test_x.py::Class::test_f[param]`) are the ids
 *     of both, relative to the repo root;
 *   - else the one bakeoff id that ends in `::<source id>` or ` > <source id>`: cargo's
 *     `regression::r2208` is bakeoff's `<binary>::regression::r2208`, a jest or vitest title is
 *     bakeoff's `<file>::<describe> > <title>`;
 *   - an id with more `[` than `]` is one SWE-bench's log parser cut at a space inside the
 *     parameters (it takes a line's first word: 676 such ids in SWE-bench Verified), and
 *     matches, as the SWE-bench grader does, the one bakeoff id that starts with it;
 *   - a TAP test point's description as SWE-bench's parse_log_tap keeps it, `- <name>` with
 *     node-tap's `# time=…` after it, is matched by the name alone (the rules above).
 *
 * A source id no bakeoff id matches, or that matches several, is reported as such.
 */

export interface ExpectedTests {
  readonly failToPass: readonly string[];
  readonly passToPass: readonly string[];
}

type Found = 'fail-to-pass' | 'pass-to-pass';

/** One line per test the two disagree on (at most `limit`, then a count), or [] when they agree. */
export function expectedMismatches(expected: ExpectedTests, found: ExpectedTests, allIds: readonly string[], limit = 20): string[] {
  const classOf = new Map<string, Found>();
  for (const id of found.failToPass) classOf.set(id, 'fail-to-pass');
  for (const id of found.passToPass) classOf.set(id, 'pass-to-pass');
  const matched = new Set<string>();
  const lines: string[] = [];
  const check = (source: string, want: Found): void => {
    const ids = matchIds(source, allIds);
    if (ids.length === 0) return void lines.push(`${source}: the instance says ${want}; bakeoff's runs reported no such test`);
    if (ids.length > 1) return void lines.push(`${source}: the instance says ${want}; it matches ${ids.length} of bakeoff's tests (${ids.slice(0, 3).join(', ')})`);
    const id = ids[0]!;
    matched.add(id);
    const got = classOf.get(id);
    const shown = id === source ? source : `${source} (bakeoff: ${id})`;
    if (got !== want) lines.push(`${shown}: the instance says ${want}; bakeoff found ${got ?? 'it neither (it fails with the gold change, or is not required)'}`);
  };
  for (const id of expected.failToPass) check(id, 'fail-to-pass');
  for (const id of expected.passToPass) check(id, 'pass-to-pass');
  for (const [id, got] of classOf) if (!matched.has(id)) lines.push(`${id}: bakeoff found ${got}; the instance lists it in neither set`);
  return lines.length > limit ? [...lines.slice(0, limit), `… and ${lines.length - limit} more`] : lines;
}

function matchIds(source: string, ids: readonly string[]): string[] {
  if (ids.includes(source)) return [source];
  const tap = /^-\s+(.+?)(?:\s+#\s*time=\S*)?$/.exec(source);
  if (tap) return matchIds(tap[1]!, ids);
  if (count(source, '[') > count(source, ']')) return ids.filter((id) => id.startsWith(source));
  return ids.filter((id) => id.endsWith(`::${source}`) || id.endsWith(` > ${source}`));
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}
