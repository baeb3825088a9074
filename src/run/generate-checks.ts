import path from 'node:path';
import { z } from 'zod';
import type { Check } from '../grade/index.js';
import { canonicalJson, sha256, execFileWithParent } from '../util/index.js';

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

/** The generator failed or printed something unusable: the suite's fault, never the agent's. */
export class GeneratorError extends Error {
  override readonly name = 'GeneratorError';
}
