import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSources } from './load-sources.js';

let repo: string;
let outside: string;

function write(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

beforeEach(() => {
  repo = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-sources-'));
  outside = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-outside-'));
});
afterEach(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('loadSources', () => {
  it('reads every .js and .mjs file under the source folder, keyed by repo-relative paths with slashes', async () => {
    write(path.join(repo, 'src/index.js'), 'export const a = 1;\n');
    write(path.join(repo, 'src/lib/util.mjs'), 'export const ü = "é";\n');
    write(path.join(repo, 'src/types.ts'), 'export type T = 1;\n');
    write(path.join(repo, 'src/data.json'), '{}');
    write(path.join(repo, 'src/old.cjs'), 'module.exports = 1;\n');
    write(path.join(repo, 'test/index.test.js'), 'x');
    const loaded = await loadSources(repo, 'src');
    expect(loaded.files).toEqual({ 'src/index.js': 'export const a = 1;\n', 'src/lib/util.mjs': 'export const ü = "é";\n' });
    expect(loaded.totalBytes).toBe(Buffer.byteLength('export const a = 1;\n') + Buffer.byteLength('export const ü = "é";\n'));
  });

  it('skips node_modules folders', async () => {
    write(path.join(repo, 'src/index.js'), 'x');
    write(path.join(repo, 'src/node_modules/dep/index.js'), 'y');
    expect(Object.keys((await loadSources(repo, 'src')).files)).toEqual(['src/index.js']);
  });

  it('reads a symlink to a file inside the repo but not one leaving it, a dangling one or a symlinked folder', async () => {
    write(path.join(repo, 'src/index.js'), 'x');
    write(path.join(repo, 'shared/inside.js'), 'inside');
    write(path.join(outside, 'secret.js'), 'secret');
    mkdirSync(path.join(outside, 'dir'));
    write(path.join(outside, 'dir/more.js'), 'secret');
    symlinkSync(path.join(repo, 'shared/inside.js'), path.join(repo, 'src/linked.js'));
    symlinkSync(path.join(outside, 'secret.js'), path.join(repo, 'src/escape.js'));
    symlinkSync(path.join(outside, 'dir'), path.join(repo, 'src/escape-dir'));
    symlinkSync(path.join(repo, 'src'), path.join(repo, 'src/loop'));
    symlinkSync(path.join(repo, 'missing.js'), path.join(repo, 'src/dangling.js'));
    const loaded = await loadSources(repo, 'src');
    expect(loaded.files).toEqual({ 'src/index.js': 'x', 'src/linked.js': 'inside' });
  });

  it('yields no files when the source folder is missing or is a symlink leaving the repo', async () => {
    expect(await loadSources(repo, 'src')).toEqual({ files: {}, totalBytes: 0 });
    write(path.join(outside, 'index.js'), 'secret');
    symlinkSync(outside, path.join(repo, 'src'));
    expect(await loadSources(repo, 'src')).toEqual({ files: {}, totalBytes: 0 });
  });

  it('refuses a source folder named outside the repo', async () => {
    await expect(loadSources(repo, '../elsewhere')).rejects.toThrow(/sourceDir "\.\.\/elsewhere" points outside the repository/);
    await expect(loadSources(repo, '/etc')).rejects.toThrow(/points outside the repository/);
  });

  it('reads the whole repo when the source folder is "."', async () => {
    write(path.join(repo, 'index.js'), 'x');
    write(path.join(repo, 'lib/a.js'), 'y');
    expect(Object.keys((await loadSources(repo, '.')).files)).toEqual(['index.js', 'lib/a.js']);
  });
});
