import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { quoteShellArg } from '../util/index.js';

/*
 * The sample projects the runner conformance suite (conformance.test.ts) runs every registered
 * runner on: one folder per sample under a fixtures folder (test/fixtures/reports/), found by
 * its sample.json, never by a list in a test:
 *
 *   <sample>/sample.json    which runner (`format`) and how to run it (below)
 *   <sample>/project/       the sample project
 *   <sample>/expected.json  the ids and statuses (and report problems) the runner must read
 *
 * A registered runner without a sample, and a sample of no registered runner, is a failing
 * case of its own (`planConformance`). Test support, left out of the build.
 */

const SampleFile = z.strictObject({
  /** The registry key of the runner the sample is for. */
  format: z.string().min(1),
  /** The bare test command, run with `sh -c` in the project; `{bin}` is the first of `bin` that exists, quoted. */
  command: z.string().min(1),
  /** Candidate programs for `{bin}`: a path relative to the project root of bakeoff, or `$VAR` (a path in that variable). */
  bin: z.array(z.string().min(1)).min(1).optional(),
  /** A command that must exit 0 for the runner to be there (`python3 -m pytest --version`). */
  probe: z.array(z.string().min(1)).min(1).optional(),
  /** What is missing when `bin` or `probe` fails: the case fails with it unless BAKEOFF_MISSING_RUNNERS names the format. */
  missing: z.string().min(1).optional(),
  /** task.yaml `test.report` (junit). */
  report: z.string().min(1).optional(),
  /** Its test files hold no tripwires (`holdsTripwires`): junit's JavaScript files. */
  unwired: z.boolean().optional(),
  /** Links the pinned JavaScript runners (js-runners/) as the project's node_modules. */
  jsRunners: z.boolean().optional(),
  /** Links bakeoff's own node_modules (vitest's test files import `vitest`). */
  linkNodeModules: z.boolean().optional(),
  /** The sample's test files, when they are not the runner's defaults (task.yaml `test.files`). */
  testFiles: z.array(z.string().min(1)).min(1).optional(),
});

/** One sample project, as its sample.json describes it. */
export interface Sample extends Omit<z.infer<typeof SampleFile>, 'command' | 'bin' | 'probe' | 'missing'> {
  /** The folder's name: the cases' names start with it. */
  readonly name: string;
  /** The folder holding sample.json, project/ and expected.json. */
  readonly dir: string;
  /** The bare command, or why the runner cannot run on this machine. */
  readonly command: { readonly bare: string } | { readonly skip: string };
}

/** Every sample under each of `dirs` (a folder with sample.json), in name order; a malformed sample.json throws naming it. */
export function readSamples(dirs: readonly string[], root: string, env: NodeJS.ProcessEnv = process.env): Sample[] {
  const samples: Sample[] = [];
  for (const dir of dirs) {
    for (const name of readdirSync(dir).sort()) {
      const file = path.join(dir, name, 'sample.json');
      if (!existsSync(file)) continue;
      const parsed = SampleFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ')}`);
      const { command, bin, probe, missing, ...rest } = parsed.data;
      samples.push({ ...rest, name, dir: path.join(dir, name), command: commandOf({ command, bin, probe, missing }, root, env) });
    }
  }
  return samples;
}

function commandOf(spec: Pick<z.infer<typeof SampleFile>, 'command' | 'bin' | 'probe' | 'missing'>, root: string, env: NodeJS.ProcessEnv): Sample['command'] {
  const missing = spec.missing ?? `${spec.bin?.join(' or ') ?? spec.probe?.join(' ')} is not installed`;
  if (spec.probe && spawnSync(spec.probe[0]!, spec.probe.slice(1), { stdio: 'ignore' }).status !== 0) return { skip: missing };
  if (!spec.bin) return { bare: spec.command };
  const found = spec.bin.map((b) => (b.startsWith('$') ? env[b.slice(1)] : path.join(root, b))).find((b) => b !== undefined && b !== '' && existsSync(b));
  return found === undefined ? { skip: missing } : { bare: spec.command.replaceAll('{bin}', quoteShellArg(found)) };
}

/** What the conformance suite runs: each registered runner's samples, and what is wrong with the registry-to-samples match. */
export interface ConformancePlan {
  readonly samples: readonly Sample[];
  /** Registered formats with no sample: each fails a case of its own. */
  readonly withoutSample: readonly string[];
  /** Samples whose format no runner is registered under. */
  readonly unregistered: readonly Sample[];
  /** Formats `only` names that no runner is registered under (a typo must not make the suite run nothing). */
  readonly unknownOnly: readonly string[];
}

/** Matches the registry's formats (`only`: just these) with the samples found. */
export function planConformance(formats: readonly string[], samples: readonly Sample[], only?: readonly string[]): ConformancePlan {
  const wanted = only && only.length > 0 ? formats.filter((f) => only.includes(f)) : formats;
  return {
    samples: samples.filter((s) => wanted.includes(s.format)),
    withoutSample: wanted.filter((f) => !samples.some((s) => s.format === f)),
    unregistered: only && only.length > 0 ? [] : samples.filter((s) => !formats.includes(s.format)),
    unknownOnly: (only ?? []).filter((f) => !formats.includes(f)),
  };
}
