import { InvalidVersionError } from './errors.ts';

export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** Dot-separated pre-release identifiers; numeric ones are numbers. */
  readonly prerelease: readonly (string | number)[];
  readonly build: readonly string[];
}

const NUMERIC = '0|[1-9]\\d*';
const IDENT = `(?:${NUMERIC}|\\d*[a-zA-Z-][0-9a-zA-Z-]*)`;
const VERSION_RE = new RegExp(
  `^v?(${NUMERIC})\\.(${NUMERIC})\\.(${NUMERIC})` +
    `(?:-(${IDENT}(?:\\.${IDENT})*))?` +
    `(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$`,
);

/** Parses a full SemVer 2.0.0 version such as `1.2.3`, `1.2.3-rc.1` or `v1.2.3+build.5`. */
export function parseVersion(input: string): Version {
  const match = VERSION_RE.exec(input.trim());
  if (!match) throw new InvalidVersionError(input);
  const [, major, minor, patch, pre, build] = match;
  const numbers = [major, minor, patch].map(Number);
  if (numbers.some((n) => !Number.isSafeInteger(n))) throw new InvalidVersionError(input);
  return {
    major: numbers[0]!,
    minor: numbers[1]!,
    patch: numbers[2]!,
    prerelease: pre ? pre.split('.').map((id) => (/^\d+$/.test(id) ? Number(id) : id)) : [],
    build: build ? build.split('.') : [],
  };
}

/** Compares two versions by SemVer precedence: -1, 0 or 1. Build metadata is ignored. */
export function compareVersions(a: Version | string, b: Version | string): -1 | 0 | 1 {
  const x = typeof a === 'string' ? parseVersion(a) : a;
  const y = typeof b === 'string' ? parseVersion(b) : b;
  return (
    compareNumbers(x.major, y.major) ||
    compareNumbers(x.minor, y.minor) ||
    compareNumbers(x.patch, y.patch) ||
    comparePrerelease(x.prerelease, y.prerelease)
  );
}

function compareNumbers(a: number, b: number): -1 | 0 | 1 {
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePrerelease(a: Version['prerelease'], b: Version['prerelease']): -1 | 0 | 1 {
  // A version without pre-release identifiers has higher precedence.
  if (a.length === 0 || b.length === 0) return compareNumbers(b.length, a.length);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return compareNumbers(x, y);
    // Numeric identifiers have lower precedence than alphanumeric ones.
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

export function formatVersion(v: Version): string {
  let out = `${v.major}.${v.minor}.${v.patch}`;
  if (v.prerelease.length > 0) out += `-${v.prerelease.join('.')}`;
  if (v.build.length > 0) out += `+${v.build.join('.')}`;
  return out;
}
