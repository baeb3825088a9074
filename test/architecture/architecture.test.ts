import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayers, readImports, shippedTestHelpers } from './module-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const TEST = fileURLToPath(new URL('..', import.meta.url));

describe('the module map', () => {
  it('holds: every import between modules points down a layer and enters through index.ts or a file it re-exports; no ring of files', () => {
    expect(checkLayers(readImports(SRC)).map((v) => v.message)).toEqual([]);
  });

  it('fails on a planted upward import, a sideways import, a deep import, a CLI import past api and a ring, naming file and line', async () => {
    const copy = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-architecture-'));
    try {
      await cp(SRC, copy, { recursive: true });
      const plant = async (file: string, line: string): Promise<void> => {
        const text = await readFile(path.join(copy, file), 'utf8');
        await writeFile(path.join(copy, file), `${line}\n${text}`);
      };
      await plant('suite/load-suite.ts', "import '../cli/index.js';");
      await plant('store/open-store.ts', "import '../report/index.js';");
      await plant('grade/evaluate.ts', "import { watchStepCpu } from '../sandbox/step-cpu.js';");
      // a file the module's index.ts re-exports is part of its surface: importing it alone is no violation
      await plant('grade/protected-changes.ts', "import { applyPatch } from '../sandbox/git.js';");
      await plant('cli/commands/agents.ts', "import { HARNESSES } from '../../agents/index.js';");
      await plant('util/hash.ts', "import './fs.js';");
      await plant('util/fs.ts', "import './hash.js';");
      const found = checkLayers(readImports(copy));
      expect([...new Set(found.map((v) => v.rule))].sort()).toEqual(['cycle', 'deep', 'narrow', 'sideways', 'upward']);
      expect(found.filter((v) => v.rule === 'narrow').map((v) => v.message)).toEqual([
        'src/cli/commands/agents.ts:1 imports src/agents/index.ts: cli may import only core, util, report, api (reach agents through api)',
      ]);
      expect(found.find((v) => v.rule === 'upward')?.message).toBe(
        'src/suite/load-suite.ts:1 imports src/cli/index.ts: suite (layer 3) may not import cli (layer 10, above it)',
      );
      expect(found.filter((v) => v.rule === 'deep').map((v) => v.message)).toEqual([
        'src/grade/evaluate.ts:1 imports src/sandbox/step-cpu.ts: enter sandbox through src/sandbox/index.ts or a file it re-exports',
      ]);
      expect(found.filter((v) => v.rule === 'cycle').map((v) => v.message)).toContain('files import each other in a ring: src/util/fs.ts, src/util/hash.ts');
      expect(found.find((v) => v.rule === 'sideways')?.message).toBe(
        'src/store/open-store.ts:1 imports src/report/index.ts: store and report share layer 3; modules of one layer do not import each other',
      );
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it('ships no test helper: a source file only tests import is named *.test-support.ts, which the build leaves out', () => {
    expect(shippedTestHelpers(SRC, TEST).map((v) => v.message)).toEqual([]);
  });

  it('names a planted helper that only a test imports', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-architecture-'));
    try {
      await cp(SRC, path.join(work, 'src'), { recursive: true });
      await writeFile(path.join(work, 'src/util/fake-clock.ts'), 'export const now = (): number => 0;\n');
      await writeFile(path.join(work, 'src/util/clock.test.ts'), "import { now } from './fake-clock.js';\nnow();\n");
      await writeFile(path.join(work, 'src/util/upstream-kit.ts'), 'export const kit = 1;\n');
      await mkdir(path.join(work, 'test'));
      await writeFile(path.join(work, 'test/uses-kit.ts'), "import { kit } from '../src/util/upstream-kit.js';\nexport const k = kit;\n");
      const found = shippedTestHelpers(path.join(work, 'src'), path.join(work, 'test')).map((v) => v.message);
      expect(found).toEqual([
        'src/util/fake-clock.ts is imported only by tests (src/util/clock.test.ts) but ships in dist/: name it src/util/fake-clock.test-support.ts',
        'src/util/upstream-kit.ts is imported only by tests (test/uses-kit.ts) but ships in dist/: name it src/util/upstream-kit.test-support.ts',
      ]);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
