import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { TestRunner } from './types.js';
import { JS_SHARED_CONFIG } from './js-config.js';
import { parseTapOutput } from './parse-tap-output.js';
import { createTapeFileNamer, readTapeFiles } from './tape-files.js';
import { tapTripwires } from './tripwire-sources.js';
import { quoteShellArg } from '../util/index.js';

/** The command's stderr, kept apart from the report (its stdout). */
const STDERR_FILE = 'stderr.log';

/** Files node-tap collects by default, and the usual test folders and names of tape projects. */
const TAP_TEST_FILES = [
  'test/**/*.?(c|m)[jt]s',
  'tests/**/*.?(c|m)[jt]s',
  '**/__tests__/**/*.?(c|m)[jt]s',
  '**/*.{test,spec}.?(c|m)[jt]s',
] as const;

/**
 * Any TAP 13/14 producer (tape, node-tap with `--reporter=tap`, `node --test
 * --test-reporter=tap`, prove …): the report is the bare command's stdout, read through the
 * sandbox's pipe as it is printed, so nothing in the sandbox can rewrite what was printed; its
 * stderr goes to a file of the report folder (kept with the output log), so that what the
 * tests write there is never read as TAP. What the tests print on stdout is part of the stream,
 * which is why the stream must hold together (see parseTapOutput) and why a graded report may
 * name only tests the lock knows (`forgeableReport`; decision 008). Ids: see parseTapOutput.
 * node-tap's `.taprc` and the `tap` key of package.json are its configuration (protected).
 */
export const tapRunner: TestRunner = {
  format: 'tap',
  testFiles: TAP_TEST_FILES,
  configFiles: [...JS_SHARED_CONFIG, '**/.taprc'],
  reportFiles: [STDERR_FILE],
  reportIsOutput: true,
  forgeableReport: true,
  testNamePrefix: '',
  tripwireSource: tapTripwires,
  // tape's tests under their file, as parse names them (node-tap and node:test nest theirs under the file: no groups there)
  testIds: (file, path, name, text) => (tapLibrary(text) === 'tape' ? [`${file}::${[...path, name].join(' > ')}`] : []),
  holdsTripwires: (text) => tapLibrary(text) !== null,
  instrument(command, { reportDir }) {
    // a new line before the brace: the command may end in a comment
    return { command: `{ ${command}\n} 2> ${quoteShellArg(path.join(reportDir, STDERR_FILE))}`, env: {} };
  },
  async parse({ output, repoDir }) {
    // tape prints names only: the files are read to tell whose each name is (tape-files.ts)
    const tape = mayBeTape(output) ? await readTapeFiles(repoDir, TAP_TEST_FILES, (text) => tapLibrary(text) === 'tape') : [];
    return parseTapOutput(output, { isFile: (name) => isRepoFile(repoDir, name), headingFile: createTapeFileNamer(tape) });
  },
};

/** Whether a TAP stream may be tape's: no subtests (node-tap and node:test nest every test in one). */
function mayBeTape(output: string): boolean {
  return !/^\s*# Subtest: /m.test(output);
}

/** Which TAP library a JavaScript test file uses (`tape`, node-tap's `tap`, or node:test with its TAP reporter), from its imports. */
export function tapLibrary(text: string): 'tape' | 'tap' | 'node:test' | null {
  for (const library of ['tape', 'tap', 'node:test'] as const) {
    if (new RegExp(`(require\\(\\s*|from\\s+|import\\s+)['"]${library}['"]`).test(text)) return library;
  }
  return null;
}

function isRepoFile(repoDir: string, name: string): boolean {
  if (path.isAbsolute(name) || name.split(/[\\/]/).includes('..')) return false;
  try {
    return lstatSync(path.join(repoDir, name)).isFile();
  } catch {
    return false;
  }
}
