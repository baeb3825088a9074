import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RUN_FOLDER_NAMES } from '../../src/store/index.js';
import { checkLayers, readImports, shippedTestHelpers } from './module-graph.js';
import { runFolderNameUses, spells } from './run-folder-names.js';

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

  it('fails on two folders of one module that import each other (report/view and report/render), naming both imports', async () => {
    const copy = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-architecture-'));
    try {
      await cp(SRC, copy, { recursive: true });
      const file = path.join(copy, 'report/view/summarize.ts');
      await writeFile(file, `import '../render/render-table.js';\n${await readFile(file, 'utf8')}`);
      const found = checkLayers(readImports(copy)).filter((v) => v.rule === 'folder-cycle');
      expect(found).toHaveLength(1);
      expect(found[0]!.message).toMatch(/^folders import each other in a ring: src\/report\/render\/, src\/report\/view\/ \(src\/report\/render\/\S+ imports src\/report\/view\/\S+; src\/report\/view\/summarize\.ts:1 imports src\/report\/render\/render-table\.ts\)/);
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

/** `src/<file>:<line> spells <name>`, as the failures list them. */
const listed = (uses: ReturnType<typeof runFolderNameUses>): string[] => uses.map((u) => `src/${u.file}:${u.line} spells ${u.name} (${JSON.stringify(u.text)}): ask store/run-folder.ts`);

describe('the results folder layout', () => {
  it('has one owner: no src/ module but store/run-folder.ts spells a run-folder file name', () => {
    expect(RUN_FOLDER_NAMES).toEqual(expect.arrayContaining(['bakeoff.db', 'change.patch', 'change-refused.json', 'change-refused.txt', 'order-', 'stream.jsonl', 'test-output.log']));
    expect(listed(runFolderNameUses(SRC, RUN_FOLDER_NAMES))).toEqual([]);
  });

  it('fails on planted names: a file name in a string, an order folder in a template, a path under runs/', async () => {
    const copy = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-run-folder-'));
    try {
      await cp(SRC, copy, { recursive: true });
      const plant = async (file: string, line: string): Promise<void> => {
        const text = await readFile(path.join(copy, file), 'utf8');
        await writeFile(path.join(copy, file), `${line}\n${text}`);
      };
      await plant('verify/regrade-run.ts', "export const planted1 = (dir: string): string => dir + '/change-refused.txt';");
      await plant('api/publish.ts', 'export const planted2 = (n: number): string => `order-${n}`;');
      await plant('report/site/render-run-detail.ts', "export const planted3 = 'runs/x/order-1/agent.log';");
      const found = listed(runFolderNameUses(copy, RUN_FOLDER_NAMES));
      expect(found).toEqual([
        'src/api/publish.ts:1 spells order- ("order-"): ask store/run-folder.ts',
        'src/report/site/render-run-detail.ts:1 spells runs ("runs/x/order-1/agent.log"): ask store/run-folder.ts',
        'src/report/site/render-run-detail.ts:1 spells agent.log ("runs/x/order-1/agent.log"): ask store/run-folder.ts',
        'src/report/site/render-run-detail.ts:1 spells order- ("runs/x/order-1/agent.log"): ask store/run-folder.ts',
        'src/verify/regrade-run.ts:1 spells change-refused.txt ("/change-refused.txt"): ask store/run-folder.ts',
      ]);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it('tells a path from a word: "runs" as a column header or an HTML anchor "order-" is no run folder', () => {
    expect(spells('runs', 'runs')).toBe(false);
    expect(spells('runs/', 'runs')).toBe(true);
    expect(spells('<h2 id="order-', 'order-')).toBe(false);
    expect(spells('order-', 'order-')).toBe(true);
    expect(spells('prompt.md', 'prompt.md')).toBe(true);
    expect(spells('the prompt.md file', 'prompt.md')).toBe(false);
  });
});
