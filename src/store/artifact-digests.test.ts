import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../util/hash.js';
import { compareArtifactDigests, digestArtifacts, type ArtifactDigest } from './artifact-digests.js';

const digest = (p: string, content: string): ArtifactDigest => ({ path: p, sha256: sha256(content), bytes: Buffer.byteLength(content) });

describe('digestArtifacts', () => {
  it('hashes every file under the folder by relative path, names like node_modules or .git included', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-digests-'));
    await mkdir(path.join(dir, 'order-1', 'grade', 'report', 'node_modules'), { recursive: true });
    await writeFile(path.join(dir, 'order-1', 'change.patch'), 'diff\n');
    await writeFile(path.join(dir, 'order-1', 'grade', 'report', 'node_modules', 'x.json'), '{}');
    await writeFile(path.join(dir, '.git'), '');
    await symlink('/etc/passwd', path.join(dir, 'order-1', 'link'));
    expect(digestArtifacts(dir)).toEqual([
      digest('.git', ''),
      digest('order-1/change.patch', 'diff\n'),
      digest('order-1/grade/report/node_modules/x.json', '{}'),
      digest('order-1/link', '/etc/passwd'),
    ]);
  });

  it('finds no artifacts in a folder that does not exist', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-digests-'));
    await rm(dir, { recursive: true });
    expect(digestArtifacts(dir)).toEqual([]);
  });
});

describe('compareArtifactDigests', () => {
  const recorded = [digest('a', 'one'), digest('b/c', 'two'), digest('d', 'three')];

  it('finds nothing when the files are the same', () => {
    expect(compareArtifactDigests(recorded, [...recorded].reverse())).toEqual([]);
  });

  it('names a changed, a missing and an extra file, sorted by path', () => {
    const actual = [digest('a', 'ONE'), digest('d', 'three'), digest('e', 'new')];
    expect(compareArtifactDigests(recorded, actual)).toEqual([
      { path: 'a', change: 'changed' },
      { path: 'b/c', change: 'missing' },
      { path: 'e', change: 'extra' },
    ]);
  });

  it('counts a file with the same hash but another size as changed', () => {
    expect(compareArtifactDigests([digest('a', 'x')], [{ ...digest('a', 'x'), bytes: 2 }])).toEqual([{ path: 'a', change: 'changed' }]);
  });

  it('treats every file as extra when nothing was recorded, and every one as missing when none is left', () => {
    expect(compareArtifactDigests([], recorded).map((m) => m.change)).toEqual(['extra', 'extra', 'extra']);
    expect(compareArtifactDigests(recorded, []).map((m) => m.change)).toEqual(['missing', 'missing', 'missing']);
  });
});
