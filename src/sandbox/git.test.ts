import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exists } from '../util/fs.js';
import { applyPatch, captureChange, git } from './git.js';
import { preparedRepo } from './prepared-repo.test-support.js';

async function repoWithSetupOutput(): Promise<{ prepared: string; ws: string }> {
  const { root, prepared } = await preparedRepo('bakeoff-git-test-', { 'a.txt': 'one\ntwo\n' }, '/node_modules/\n');
  await mkdir(path.join(prepared, 'node_modules'));
  await writeFile(path.join(prepared, 'node_modules', 'dep.js'), 'x');
  const ws = path.join(root, 'ws');
  await git(['clone', '-q', '--no-hardlinks', prepared, ws], { cwd: root });
  await mkdir(path.join(ws, 'node_modules'));
  await writeFile(path.join(ws, 'node_modules', 'dep.js'), 'x');
  return { prepared, ws };
}

describe('captureChange', () => {
  it('captures edits, new files and binary files, and leaves setup outputs out', async () => {
    const { prepared, ws } = await repoWithSetupOutput();
    await writeFile(path.join(ws, 'a.txt'), 'one\nTWO\nthree\n');
    await writeFile(path.join(ws, 'bin.dat'), Buffer.from([0, 1, 2, 255, 0]));
    await writeFile(path.join(ws, 'node_modules', 'dep.js'), 'changed by the agent');
    const change = await captureChange(prepared, ws);
    expect([...change.paths].sort()).toEqual(['a.txt', 'bin.dat']);
    // the binary file's one "line" counts too: lines to review are counted as text, always; and
    // so does the name of the file it adds (git's plain count leaves names out)
    expect([change.linesAdded, change.linesRemoved]).toEqual([3 + 1, 1]);
    expect([change.plainLinesAdded, change.plainLinesRemoved]).toEqual([3, 1]);
    expect(change.binaryPaths).toEqual(['bin.dat']);
    expect(change.patch).toContain('GIT binary patch');

    const { ws: fresh } = await repoWithSetupOutput();
    expect(await applyPatch(fresh, change.patch)).toEqual({ ok: true });
    expect(await readFile(path.join(fresh, 'bin.dat'))).toEqual(Buffer.from([0, 1, 2, 255, 0]));
    expect(await readFile(path.join(fresh, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
  });

  it('captures a file whose bytes are not UTF-8 as binary, byte for byte, whatever its name, and still counts its lines', async () => {
    const { prepared, ws } = await repoWithSetupOutput();
    const latin1 = Buffer.from('caf\xe9\nna\xefve\n', 'latin1');
    await writeFile(path.join(ws, 'a.txt'), Buffer.concat([Buffer.from('one\n'), latin1]));
    const odd = 'odd [1] *"q".txt';
    const packed = Buffer.from([0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x0a, 0x06, 0x2c, 0x02, 0x15]);
    await writeFile(path.join(ws, odd), packed);
    await writeFile(path.join(ws, 'plain.txt'), 'naïve\n');
    const change = await captureChange(prepared, ws);
    expect([...change.binaryPaths].sort()).toEqual(['a.txt', odd]);
    expect(change.patch.match(/GIT binary patch/g)).toHaveLength(2);
    expect(change.patch).toContain('+naïve');
    expect(change.linesAdded).toBeGreaterThanOrEqual(4);
    const { ws: fresh } = await repoWithSetupOutput();
    expect(await applyPatch(fresh, change.patch)).toEqual({ ok: true });
    expect(await readFile(path.join(fresh, 'a.txt'))).toEqual(Buffer.concat([Buffer.from('one\n'), latin1]));
    expect(await readFile(path.join(fresh, odd))).toEqual(packed);
  });

  it('counts every line of a change whatever the agent\'s .gitattributes says, and captures the bytes as written', async () => {
    const { prepared, ws } = await repoWithSetupOutput();
    await writeFile(path.join(ws, '.gitattributes'), '* binary\n*.txt -diff eol=crlf text\n');
    await writeFile(path.join(ws, 'a.txt'), 'one\ntwo\nthree\nfour\n');
    await writeFile(path.join(ws, 'sabotage.py'), 'import os\nos.system("x")\n');
    const change = await captureChange(prepared, ws);
    expect([...change.paths].sort()).toEqual(['.gitattributes', 'a.txt', 'sabotage.py']);
    // .gitattributes and sabotage.py: two lines each and a name each; a.txt: two lines
    expect([change.linesAdded, change.linesRemoved]).toEqual([2 + 2 + 2 + 2, 0]);
    expect(change.binaryPaths).toEqual([]);
    expect(change.patch).not.toContain('Binary files');
    const { ws: fresh } = await repoWithSetupOutput();
    expect(await applyPatch(fresh, change.patch)).toEqual({ ok: true });
    expect(await readFile(path.join(fresh, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\nfour\n');
    expect(await readFile(path.join(prepared, '.git', 'info', 'exclude'), 'utf8')).toBe('/node_modules/\n');
    expect(await exists(path.join(prepared, '.git', 'info', 'attributes'))).toBe(false);
  });

  it('never runs configuration the agent wrote into its .git', async () => {
    const { prepared, ws } = await repoWithSetupOutput();
    const marker = path.join(ws, '..', 'PWNED');
    const hook = path.join(ws, '..', 'hook.sh');
    await writeFile(hook, `#!/bin/sh\ntouch ${marker}\n`);
    await chmod(hook, 0o755);
    await writeFile(
      path.join(ws, '.git', 'config'),
      `[core]\n\tfsmonitor = ${hook}\n\thooksPath = ${path.dirname(hook)}\n[filter "x"]\n\tclean = ${hook}\n`,
    );
    await writeFile(path.join(ws, '.gitattributes'), '* filter=x\n');
    await writeFile(path.join(ws, 'a.txt'), 'changed\n');
    const change = await captureChange(prepared, ws);
    expect([...change.paths].sort()).toEqual(['.gitattributes', 'a.txt']);
    expect(await exists(marker)).toBe(false);
  });

  it('reports a patch that does not apply instead of throwing', async () => {
    const { ws } = await repoWithSetupOutput();
    const result = await applyPatch(ws, 'diff --git a/zz b/zz\n--- a/zz\n+++ b/zz\n@@ -1 +1 @@\n-nope\n+yes\n');
    expect(result.ok).toBe(false);
  });
});
