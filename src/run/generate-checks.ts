import path from 'node:path';
import { z } from 'zod';
import type { Check } from '../grade/index.js';
import type { Task } from '../suite/index.js';
import { canonicalJson, sha256, execFileWithParent, type ProbeCache } from '../util/index.js';

const run = execFileWithParent;

const GeneratedChecks = z.object({
  checks: z
    .array(
      z.object({
        id: z.string().min(1),
        call: z.string().regex(/^[A-Za-z_$][\w$]*$/),
        input: z.unknown(),
        expected: z.unknown(),
      }),
    )
    .min(1),
});

export interface GeneratedSet {
  readonly checks: readonly Check[];
  /** sha256 of the checks in canonical JSON: the oracle's fingerprint for this seed and level. */
  readonly digest: string;
}

/** The generator of an order's checks: `orders/<n>/hidden/checks.py`. */
export function checksScript(hiddenDir: string): string {
  return path.join(hiddenDir, 'checks.py');
}

/**
 * Runs an order's generator and reference model (`python3 checks.py --seed S --level L`; the
 * suite author's program, trusted like a setup command) and validates what it printed.
 */
export async function generateChecks(hiddenDir: string, seed: number, level: number): Promise<GeneratedSet> {
  const script = checksScript(hiddenDir);
  let stdout: string;
  try {
    ({ stdout } = await run('python3', [script, '--seed', String(seed), '--level', String(level)], {
      cwd: hiddenDir,
      timeout: 120_000,
      maxBuffer: 256 * 1024 * 1024,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PYTHONHASHSEED: '0', PYTHONDONTWRITEBYTECODE: '1', TZ: 'UTC', LANG: 'C.UTF-8' },
    }));
  } catch (error) {
    throw new GeneratorError(`${script} --seed ${seed} --level ${level} failed: ${(error as { stderr?: string }).stderr?.trim().split('\n').pop() ?? (error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(stdout);
  } catch {
    throw new GeneratorError(`${script}: expected one JSON object on stdout, received ${JSON.stringify(stdout.slice(0, 80))}`);
  }
  const parsed = GeneratedChecks.safeParse(data);
  if (!parsed.success) throw new GeneratorError(`${script}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const ids = parsed.data.checks.map((c) => c.id);
  const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
  if (duplicate) throw new GeneratorError(`${script}: check id ${JSON.stringify(duplicate)} appears twice`);
  const checks = parsed.data.checks as Check[];
  return { checks, digest: sha256(canonicalJson(checks)) };
}

/**
 * Generated sets kept on this machine (in the probe cache), so that a set is generated once per
 * machine instead of once per bake: a set is a function of the task's files (its admission hash
 * covers the generator and everything beside it in hidden/), the order, the seed and level, and
 * the Python and bakeoff that ran and read the generator. Admission keeps every set it proved
 * deterministic (generated twice, the same checks), and never takes a kept one: each validate
 * runs the generator again, twice. A bake and adversarial admission's runs take the kept set
 * (runs of an admitted task, whose generator admission proved deterministic at these seeds and
 * levels); one not kept is generated and kept. `bakeoff verify` never takes a kept set.
 */
export interface GeneratedChecksCache {
  readonly probes: ProbeCache;
  /** The runtime versions (runtimeVersions): `python` and `bakeoff` are part of what a set is kept under. */
  readonly runtime: Readonly<Record<string, string>>;
}

/** Where the set of `task`'s order at seed and level is kept, and under what. */
function keptSetOf(cache: GeneratedChecksCache, task: Pick<Task, 'admissionHash'>, order: number, seed: number, level: number): { name: string; key: unknown } {
  const key = { task: task.admissionHash, order, seed, level, python: cache.runtime.python ?? null, bakeoff: cache.runtime.bakeoff ?? null };
  return { name: `checks-${sha256(canonicalJson(key)).slice(0, 32)}`, key };
}

/** Keeps a set admission proved deterministic, for the bakes of the task (GeneratedChecksCache). */
export function keepGeneratedChecks(cache: GeneratedChecksCache, task: Pick<Task, 'admissionHash'>, order: number, seed: number, level: number, set: GeneratedSet): void {
  const { name, key } = keptSetOf(cache, task, order, seed, level);
  cache.probes.keep(name, key, set);
}

/** The kept set of the order at seed and level, else the generator's, then kept (GeneratedChecksCache). */
export function keptOrGeneratedChecks(cache: GeneratedChecksCache, task: Pick<Task, 'admissionHash'>, order: { index: number; hiddenDir: string }, seed: number, level: number): Promise<GeneratedSet> {
  const { name, key } = keptSetOf(cache, task, order.index, seed, level);
  return cache.probes.remember(name, key, () => generateChecks(order.hiddenDir, seed, level));
}

/** The generator failed or printed something unusable: the suite's fault, never the agent's. */
export class GeneratorError extends Error {
  override readonly name = 'GeneratorError';
}
