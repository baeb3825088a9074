import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createNamer, cryptoRandom, findTestCases, type Random, type TestFileCases } from '../runners/index.js';
import { drawGroups, type GroupFile } from './tripwire-groups.js';
import { drawTripwires, type Tripwire, type TripwireGroup } from './tripwires.js';
import type { TestRunner } from './types.js';

/*
 * Puts one grading's tripwires into the graded test files: groups where a file holds
 * fail-to-pass tests bakeoff can copy (tripwire-groups.ts), else the runner's three wires at a
 * random place among the file's top-level statements. Files the runner cannot hold tests of
 * bakeoff's in (`holdsTripwires`: whole-file tests) get neither.
 */

export interface PlaceTripwiresOptions {
  readonly repoDir: string;
  readonly runner: TestRunner;
  /** Repo-relative test files that get tripwires. */
  readonly files: readonly string[];
  /** Ids tests may be made groups of: the order's fail-to-pass tests (none at a baseline admission run). */
  readonly templateIds: readonly string[];
  /** Every id the report is known to hold (see DrawGroupsOptions.knownIds). */
  readonly knownIds: readonly string[];
  /** How node loads a JavaScript file (for the wires' imports). */
  readonly moduleKind: (rel: string, text: string) => Promise<'esm' | 'cjs'>;
  readonly random?: Random;
}

export interface PlacedTripwires {
  readonly groups: readonly TripwireGroup[];
  readonly wires: readonly Tripwire[];
  /** Files that hold no tripwires (whole-file tests). */
  readonly unwired: readonly string[];
  /** Fail-to-pass tests a group could have been made of (chosen or not). */
  readonly eligible: readonly string[];
}

export async function placeTripwires(options: PlaceTripwiresOptions): Promise<PlacedTripwires> {
  const { runner, repoDir } = options;
  const random = options.random ?? cryptoRandom;
  const unwired: string[] = [];
  const read: { rel: string; text: string; cases: TestFileCases | null }[] = [];
  for (const rel of options.files) {
    const text = await readFile(path.join(repoDir, rel), 'utf8');
    if (runner.holdsTripwires && !runner.holdsTripwires(text, rel)) {
      unwired.push(rel);
      continue;
    }
    read.push({ rel, text, cases: await findTestCases(rel, text) });
  }
  const groupFiles = read.flatMap(({ rel, text, cases }) => groupFileOf(runner, rel, text, cases) ?? []);
  const drawn = drawGroups(groupFiles, { templateIds: options.templateIds, knownIds: options.knownIds, random });
  const wires: Tripwire[] = [];
  for (const { rel, text, cases } of read) {
    const grouped = drawn.texts.get(rel);
    if (grouped !== undefined) {
      await writeFile(path.join(repoDir, rel), grouped);
      continue;
    }
    const placed = wiresFor(runner, rel, text, cases, random);
    const source = runner.tripwireSource({ ...placed.target, text, moduleKind: await options.moduleKind(rel, text) });
    const points = cases?.insertPoints ?? [];
    const at = points.length > 0 ? points[random(points.length)]! : text.length;
    await writeFile(path.join(repoDir, rel), `${text.slice(0, at)}\n${source}${text.slice(at)}`);
    wires.push(...placed.wires);
  }
  return { groups: drawn.groups, wires, unwired, eligible: drawn.eligible };
}

/** A file as the groups see it, or null when the runner cannot tell how its tests are named. */
export function groupFileOf(runner: TestRunner, rel: string, text: string, cases: TestFileCases | null): GroupFile | null {
  const testIds = runner.testIds;
  if (cases === null || testIds === undefined) return null;
  const style = cases.language === 'python' || cases.language === 'rust' ? 'identifier' : 'title';
  return { file: rel, text, cases, ids: (p, name) => testIds(rel, p, name, text), names: { style, prefix: cases.language === 'python' ? runner.testNamePrefix || 'test_' : '' } };
}

/** Wires named from the file's own words when bakeoff could read it. */
function wiresFor(runner: TestRunner, rel: string, text: string, cases: TestFileCases | null, random: Random): ReturnType<typeof drawTripwires> {
  if (cases === null) return drawTripwires(rel, runner.testNamePrefix);
  const identifier = cases.language === 'python' || cases.language === 'rust';
  const names = createNamer(cases.names, { style: identifier ? 'identifier' : 'title', prefix: cases.language === 'python' ? runner.testNamePrefix || 'test_' : '', random });
  const nonces = createNamer(new Set([...cases.names, ...text.split(/\s+/)]), { style: 'title', prefix: '', random });
  return drawTripwires(rel, runner.testNamePrefix, (kind) => (kind === 'name' ? names() : nonces()));
}
