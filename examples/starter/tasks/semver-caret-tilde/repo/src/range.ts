import { InvalidRangeError } from './errors.ts';
import { compareVersions, parseVersion, type Version } from './version.ts';

export type Operator = '=' | '>' | '>=' | '<' | '<=';

export interface Comparator {
  readonly operator: Operator;
  readonly version: Version;
}

/** Comparator sets joined by `||`; an empty set matches every release version. */
export type Range = readonly (readonly Comparator[])[];

const COMPARATOR_RE = /^(<=|>=|<|>|=)?\s*v?(\*|x|X|0|[1-9]\d*)(?:\.(\*|x|X|0|[1-9]\d*))?(?:\.(\*|x|X|0|[1-9]\d*))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parses a range such as `>=1.2.0 <2.0.0 || 3.x`. */
export function parseRange(input: string): Range {
  return input.split('||').map((set) => parseComparatorSet(set.trim(), input));
}

function parseComparatorSet(set: string, input: string): Comparator[] {
  if (set === '') return [];
  // Allow a space between an operator and its version: `>= 1.2.0`.
  const tokens = set.replace(/(<=|>=|<|>|=)\s+/g, '$1').split(/\s+/);
  return tokens.flatMap((token) => parseComparator(token, input));
}

function parseComparator(token: string, input: string): Comparator[] {
  const match = COMPARATOR_RE.exec(token);
  if (!match) {
    const operator = /^[^\dvxX*]+/.exec(token)?.[0];
    throw new InvalidRangeError(
      input,
      operator ? `unsupported operator ${JSON.stringify(operator)}` : `cannot parse ${JSON.stringify(token)}`,
    );
  }
  const [, op = '=', majorText, minorText, patchText, pre] = match;
  const operator = op as Operator;
  const major = part(majorText);
  const minor = part(minorText);
  const patch = part(patchText);

  if (major === undefined) {
    // `*`, `x`: any version; only `<*`/`>*` make no sense.
    if (operator === '<' || operator === '>') throw new InvalidRangeError(input, `nothing is ${operator}*`);
    return [];
  }

  if (minor === undefined || patch === undefined) {
    if (pre) throw new InvalidRangeError(input, `pre-release on a partial version ${JSON.stringify(token)}`);
    return xRange(operator, major, minor, input);
  }

  return [{ operator, version: parseVersion(`${major}.${minor}.${patch}${pre ? `-${pre}` : ''}`) }];
}

/** Missing or wildcard parts of `1`, `1.x`, `1.2`, `1.2.x`. */
function xRange(operator: Operator, major: number, minor: number | undefined, input: string): Comparator[] {
  const low = version(major, minor ?? 0, 0);
  const high = minor === undefined ? version(major + 1, 0, 0) : version(major, minor + 1, 0);
  switch (operator) {
    case '=':
      return [
        { operator: '>=', version: low },
        { operator: '<', version: high },
      ];
    case '>=':
    case '<':
      return [{ operator, version: low }];
    case '>':
      return [{ operator: '>=', version: high }];
    case '<=':
      return [{ operator: '<', version: high }];
    default:
      throw new InvalidRangeError(input, `unknown operator ${String(operator)}`);
  }
}

function part(text: string | undefined): number | undefined {
  if (text === undefined || text === '*' || text === 'x' || text === 'X') return undefined;
  return Number(text);
}

function version(major: number, minor: number, patch: number): Version {
  return { major, minor, patch, prerelease: [], build: [] };
}

/** True when `version` satisfies `range` (see the README for the pre-release rule). */
export function satisfies(version: Version | string, range: Range | string): boolean {
  const v = typeof version === 'string' ? parseVersion(version) : version;
  const sets = typeof range === 'string' ? parseRange(range) : range;
  return sets.some((set) => setMatches(v, set));
}

function setMatches(v: Version, set: readonly Comparator[]): boolean {
  if (!set.every((c) => test(v, c))) return false;
  if (v.prerelease.length === 0) return true;
  // A pre-release only matches when the set explicitly mentions one of the same release.
  return set.some(
    (c) =>
      c.version.prerelease.length > 0 &&
      c.version.major === v.major &&
      c.version.minor === v.minor &&
      c.version.patch === v.patch,
  );
}

function test(v: Version, c: Comparator): boolean {
  const order = compareVersions(v, c.version);
  switch (c.operator) {
    case '=':
      return order === 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
  }
}

/** The highest of `versions` that satisfies `range`, or `undefined`. */
export function maxSatisfying(versions: readonly string[], range: string): string | undefined {
  const parsed = parseRange(range);
  let best: string | undefined;
  for (const candidate of versions) {
    if (!satisfies(candidate, parsed)) continue;
    if (best === undefined || compareVersions(candidate, best) > 0) best = candidate;
  }
  return best;
}
