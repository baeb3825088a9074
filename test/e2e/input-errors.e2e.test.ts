import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bakeoff, FIXTURES, ROOT, tempDir } from './helpers.js';

describe('bad input', () => {
  it('names file, field, expected and received for every error in a suite with typos (exit 2)', async () => {
    const r = await bakeoff(['validate', path.join(FIXTURES, 'suites/typo')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/suite\.yaml: controls\.runsPerTsk: expected a known field \(did you mean "runsPerTask"\?\), received unknown field "runsPerTsk"/);
    expect(r.stderr).toMatch(/task\.yaml: kind: expected one of "bug", "feature", received "bugg"/);
    expect(r.stderr).toMatch(/task\.yaml: language: expected one of "js", "ts", "python", "rust", received "javascript"/);
  });

  it('rejects an unknown agent spec with the accepted forms (exit 2)', async () => {
    const r = await bakeoff(['run', path.join(ROOT, 'examples/starter'), '--agent', 'nonsense', '--out', await tempDir()]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/expected one of gold, noop, patch:<file.jsonl>, command:<shell command>/);
  });

  it('rejects a malformed patch file naming the line (exit 2)', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'changes.jsonl');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, '{"task":"a","order":1,"patch":""}\n{"task":"a","ordr":1}\n');
    const r = await bakeoff(['run', path.join(ROOT, 'examples/starter'), '--agent', `patch:${file}`, '--out', dir]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/changes\.jsonl:2: ordr: expected a known field \(did you mean "order"\?\)/);
  });

  it('rejects a bad flag value (exit 2)', async () => {
    const r = await bakeoff(['run', path.join(ROOT, 'examples/starter'), '--agent', 'gold', '--runs', 'zero']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/expected a whole number >= 1, received "zero"/);
  });

  it('says a folder is not a results folder (exit 2)', async () => {
    const r = await bakeoff(['report', await tempDir()]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/not a results folder/);
  });
});
