import { existsSync } from 'node:fs';
import { HARNESS_NAMES, HARNESSES, type Harness, type HarnessName } from './harnesses/index.js';
import { binOf, installedVersion } from './install-harness.js';

/**
 * Which registered harnesses' pinned CLIs this machine can drive. A CLI that is missing, or
 * reports a version other than its harness's pin, fails the tests that drive it, unless
 * `BAKEOFF_MISSING_CLIS=<harness,…>` names it: then the tests say so (console.warn) and skip it.
 * Install the pins with `npx bakeoff agents install` (under $BAKEOFF_HARNESS_DIR or
 * /var/lib/bakeoff/harnesses).
 */
export interface InstalledCli {
  readonly name: HarnessName;
  readonly harness: Harness;
  /** The executable as installed for the pin. */
  readonly bin: string;
  /** Why the pinned CLI cannot be driven here (missing, other version), null when it can. */
  readonly problem: string | null;
  /** True when BAKEOFF_MISSING_CLIS names it: a problem skips its tests instead of failing them. */
  readonly excused: boolean;
}

/** The harness names `BAKEOFF_MISSING_CLIS` lists; a name no harness has is an error (a typo must not excuse nothing). */
export function excusedClis(env: NodeJS.ProcessEnv = process.env): ReadonlySet<string> {
  const names = (env.BAKEOFF_MISSING_CLIS ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(HARNESS_NAMES as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`BAKEOFF_MISSING_CLIS: expected harness names among ${HARNESS_NAMES.join(', ')}, received ${unknown.join(', ')}`);
  return new Set(names);
}

/** Checks one registered harness's pinned CLI (runs its `--version`). */
export async function installedCli(name: HarnessName, env: NodeJS.ProcessEnv = process.env): Promise<InstalledCli> {
  const excused = excusedClis(env).has(name);
  const harness: Harness = HARNESSES[name];
  const bin = binOf(harness, env);
  const pin = `${harness.npmPackage}@${harness.version}`;
  let problem: string | null = null;
  if (!existsSync(bin)) problem = `${name}: ${pin} is not installed (no ${bin}); run \`npx bakeoff agents install ${name}\``;
  else {
    const version = await installedVersion(harness, env);
    if (version !== harness.version) problem = `${name}: ${bin} reports version ${version ?? '(none)'}, the pin is ${pin}; run \`npx bakeoff agents install ${name}\``;
  }
  if (problem && excused) console.warn(`${problem} — skipped (BAKEOFF_MISSING_CLIS names ${name})`);
  return { name, harness, bin, problem, excused };
}

/** Checks every registered harness's pinned CLI. */
export async function installedClis(env: NodeJS.ProcessEnv = process.env): Promise<InstalledCli[]> {
  excusedClis(env); // a misspelt name is an error even when every CLI is there
  return Promise.all(HARNESS_NAMES.map((name) => installedCli(name, env)));
}

/** Throws unless every registered CLI can be driven (an excused one is warned about and left out). Returns those that can. */
export async function requireInstalledClis(env: NodeJS.ProcessEnv = process.env): Promise<InstalledCli[]> {
  const clis = await installedClis(env);
  const failing = clis.filter((c) => c.problem && !c.excused);
  if (failing.length) throw new Error(`pinned CLIs unusable (BAKEOFF_MISSING_CLIS=<harness,…> skips named ones):\n${failing.map((c) => c.problem).join('\n')}`);
  return clis.filter((c) => !c.problem);
}
