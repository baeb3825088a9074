import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installedCli } from '../../src/agents/installed-clis.test-support.js';
import { addFilePatch, canUpdateFile, deleteFilePatch, updateFilePatch } from '../../src/model-server/apply-patch-text.js';
import { minimalEdit } from '../../src/model-server/minimal-edit.js';

/*
 * Codex applies a patch when called as `codex --codex-run-as-apply-patch <patch>`: the CLI of the
 * codex harness's pin (src/agents/installed-clis.test-support.ts). A missing CLI, or one reporting another version,
 * fails these tests, unless BAKEOFF_MISSING_CLIS names codex (then they are skipped, with a warning).
 */
const codex = await installedCli('codex');
const itWithCodex = it.skipIf(codex.excused && codex.problem !== null);

describe(`apply_patch texts applied by the real Codex (${codex.harness.npmPackage}@${codex.harness.version})`, () => {
  const dir = mkdtemp(path.join(tmpdir(), 'bakeoff-apply-patch-'));
  afterAll(async () => rm(await dir, { recursive: true, force: true }));
  const run = async (patch: string) => {
    if (codex.problem !== null) throw new Error(codex.problem);
    return execa(codex.bin, ['--codex-run-as-apply-patch', patch], { cwd: await dir, reject: false });
  };

  itWithCodex.each([
    ['a change in the middle', 'a\nb\nc\nd\n', 'a\nb\nC\nd\n'],
    ['a change in a repeated block', 'f\n  r\n}\ng\n  r\n}\n', 'f\n  r\n}\ng\n  R\n}\n'],
    ['a change at the end', 'a\nb\n', 'a\nB\n'],
    ['an insertion at the top', 'a\nb\n', 'new\na\nb\n'],
    ['a CRLF file', 'one\r\ntwo\r\nthree\r\n', 'one\r\nTWO\r\nthree\r\n'],
    ['a file gaining its final newline', 'a\nb', 'a\nB\n'],
  ])('turns %s into exactly the after side', async (name, before, after) => {
    const file = `${name.replace(/ /g, '-')}.txt`;
    await writeFile(path.join(await dir, file), before);
    expect(canUpdateFile(before, after)).toBe(true);
    const result = await run(updateFilePatch(file, minimalEdit(before, after)!));
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await readFile(path.join(await dir, file), 'utf8')).toBe(after);
  });

  itWithCodex('adds and deletes files exactly', async () => {
    await writeFile(path.join(await dir, 'doomed.txt'), 'x\n');
    for (const patch of [addFilePatch('sub/new.txt', 'one\n\n  two\n'), deleteFilePatch('doomed.txt')]) {
      const result = await run(patch);
      expect(result.exitCode, result.stderr).toBe(0);
    }
    expect(await readFile(path.join(await dir, 'sub/new.txt'), 'utf8')).toBe('one\n\n  two\n');
    expect(existsSync(path.join(await dir, 'doomed.txt'))).toBe(false);
  });
});
