/**
 * Every registered importer (`registry.ts`) on its sample source, through the same cases: what
 * it writes is whole task folders that load as a suite and pass admission (`validate`, for
 * real: baseline, gold, tripwires in the sandbox); importing the same source again writes
 * nothing over them; and where an exporter of the same name exists (`export/registry.ts`), the
 * importer reads back what the exporter wrote, task hash for task hash. Samples are found, not
 * listed: `test/fixtures/importers/<name>/sample.ts` (its `prepare(dir)` builds the source); a
 * registered importer without one fails, and so does a sample of no registered importer.
 * `BAKEOFF_CONFORMANCE_IMPORTERS=<name,…>` runs only those (the added-plugins test's copy of
 * src/); `BAKEOFF_IMPORTER_SAMPLES=<dir:…>` reads samples from those folders too.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate, type ValidateOutcome } from '../api/index.js';
import { EXPORTERS } from '../export/index.js';
import { loadSuite, readLockFile } from '../suite/index.js';
import { IMPORTERS } from './registry.js';
import type { ImportedTask, Importer } from './types.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const list = (value: string | undefined, sep: string): string[] => (value ?? '').split(sep).map((s) => s.trim()).filter(Boolean);
const SAMPLE_DIRS = [path.join(ROOT, 'test/fixtures/importers'), ...list(process.env.BAKEOFF_IMPORTER_SAMPLES, ':')];
const ONLY = list(process.env.BAKEOFF_CONFORMANCE_IMPORTERS, ',');
const REGISTERED: Readonly<Record<string, Importer<never>>> = IMPORTERS;
const NAMES = Object.keys(REGISTERED).filter((n) => ONLY.length === 0 || ONLY.includes(n));

/** What a sample's `prepare` returns (test/fixtures/importers/sample-kit.ts). */
interface ImporterSample {
  readonly source: string;
  readonly options?: Readonly<Record<string, unknown>>;
}

const sampleOf = (name: string): string | undefined => SAMPLE_DIRS.map((d) => path.join(d, name, 'sample.ts')).find((f) => existsSync(f));
const samplesFound = SAMPLE_DIRS.flatMap((d) => (existsSync(d) ? readdirSync(d).filter((n) => existsSync(path.join(d, n, 'sample.ts'))) : []));

const made: string[] = [];
const tempFolder = async (prefix: string): Promise<string> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};
afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

/** Runs an importer: the sample's source and options, into `suiteDir`. */
const runImport = (importer: Importer<never>, sample: ImporterSample, suiteDir: string): Promise<readonly ImportedTask[]> =>
  (importer as unknown as Importer<Record<string, unknown>>).importTasks({ ...sample.options, source: sample.source, suiteDir });

/** Task hash per task id of a suite folder. */
async function taskHashes(suiteDir: string): Promise<Record<string, string>> {
  return Object.fromEntries((await loadSuite(suiteDir)).tasks.map((t) => [t.id, t.hash]));
}

describe('every registered importer', () => {
  for (const name of ONLY.filter((n) => !(n in REGISTERED))) {
    it(`${name}: is a registered importer (BAKEOFF_CONFORMANCE_IMPORTERS)`, () => {
      throw new Error(`BAKEOFF_CONFORMANCE_IMPORTERS names ${name}, which is not in src/importers/registry.ts (${Object.keys(REGISTERED).join(', ')})`);
    });
  }
  if (ONLY.length === 0) {
    for (const name of samplesFound.filter((n) => !(n in REGISTERED))) {
      it(`${name}: is the sample of a registered importer`, () => {
        throw new Error(`an importer sample ${name}/sample.ts, but no importer ${name} in src/importers/registry.ts (${Object.keys(REGISTERED).join(', ')})`);
      });
    }
  }

  for (const name of NAMES) {
    const importer = REGISTERED[name]!;
    const sampleFile = sampleOf(name);
    if (sampleFile === undefined) {
      it(`${name}: has a sample source to import (a registered importer owes its evidence)`, () => {
        throw new Error(`no sample for importer ${name}: add <name>/sample.ts exporting prepare(dir) under ${SAMPLE_DIRS.join(' or ')}`);
      });
      continue;
    }

    describe(`importer ${name}`, () => {
      let sample: ImporterSample;
      let suiteDir: string;
      let imported: readonly ImportedTask[];
      let admission: ValidateOutcome;

      beforeAll(async () => {
        const { prepare } = (await import(sampleFile)) as { prepare: (dir: string) => Promise<ImporterSample> };
        sample = await prepare(await tempFolder(`bakeoff-import-${name}-source-`));
        suiteDir = path.join(await tempFolder(`bakeoff-import-${name}-`), 'suite');
        imported = await runImport(importer, sample, suiteDir);
      });

      it(`${name}: writes each item of its source as a whole task folder, or refuses it with a reason`, async () => {
        const written = imported.filter((t) => t.written);
        expect(written.length, JSON.stringify(imported)).toBeGreaterThan(0);
        for (const t of imported) if (!t.written) expect(t.reason.trim(), t.item).not.toBe('');
        // nothing half-written beside them: exactly the written tasks' folders
        expect((await readdir(path.join(suiteDir, 'tasks'))).sort()).toEqual(written.map((t) => (t.written ? t.id : '')).sort());
        for (const t of written) if (t.written) expect(t.taskDir).toBe(path.join(suiteDir, 'tasks', t.id));
      });

      it(`${name}: what it writes loads as a suite and passes admission`, async () => {
        admission = await validate({ suite: suiteDir, cwd: suiteDir });
        const verdicts = admission.tasks.map((t) => [t.id, t.admitted ? 'admitted' : t.reason]);
        expect(verdicts).toEqual(imported.filter((t) => t.written).map((t) => [t.written ? t.id : '', 'admitted']));
      }, 600_000);

      it(`${name}: importing the same source again writes nothing over the tasks it wrote`, async () => {
        const before = await taskHashes(suiteDir);
        const again = await runImport(importer, sample, suiteDir).catch((error: Error) => [{ item: 'all', written: false as const, reason: error.message }]);
        expect(again.filter((t) => t.written && before[t.id] !== undefined)).toEqual([]);
        const after = await taskHashes(suiteDir);
        expect(Object.fromEntries(Object.keys(before).map((id) => [id, after[id]]))).toEqual(before);
      });

      const exporter = (EXPORTERS as Readonly<Record<string, (typeof EXPORTERS)[keyof typeof EXPORTERS]>>)[name];
      if (exporter?.from === 'suite') {
        it(`${name}: reads back what the ${name} exporter wrote, task hash for task hash`, async () => {
          const suite = await loadSuite(suiteDir);
          const state = await readLockFile(suite.dir);
          const out = path.join(await tempFolder(`bakeoff-export-${name}-`), 'out');
          await exporter.exportSuite({ suite, lock: state.kind === 'ok' ? state.lock : null, out });
          const back = path.join(await tempFolder(`bakeoff-import-${name}-back-`), 'suite');
          const reread = await runImport(importer, { ...sample, source: out }, back);
          expect(reread.filter((t) => !t.written)).toEqual([]);
          expect(await taskHashes(back)).toEqual(await taskHashes(suiteDir));
        });
      }
    });
  }

  // every suite exporter, whether or not an importer reads its format back
  for (const [name, exporter] of Object.entries(EXPORTERS)) {
    if (exporter.from !== 'suite' || ONLY.length > 0) continue;
    it(`exporter ${name}: writes a task folder per task into a new folder, and refuses one that exists`, async () => {
      const suite = await loadSuite(path.join(ROOT, 'test/fixtures/suites/tiny'));
      const out = path.join(await tempFolder(`bakeoff-export-${name}-`), 'out');
      const folders = await exporter.exportSuite({ suite, lock: null, out });
      expect(folders.map((f) => path.relative(out, f)).sort()).toEqual(suite.tasks.map((t) => t.id).sort());
      expect((await readdir(path.dirname(out))).sort()).toEqual(['out']);
      await expect(exporter.exportSuite({ suite, lock: null, out })).rejects.toThrow(/exists already/);
    });
  }
});
