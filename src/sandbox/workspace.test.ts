import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exists } from '../util/fs.js';
import { disposeScratch } from './workspace.js';

describe('disposeScratch', () => {
  it('deletes a tree deeper than PATH_MAX, made one relative folder at a time as an agent can', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-dispose-'));
    const script = `import os\nos.chdir(${JSON.stringify(dir)})\nfor _ in range(40):\n    os.mkdir("d" * 200)\n    os.chdir("d" * 200)\nopen("f", "w").write("x")\n`;
    execFileSync('python3', ['-c', script]);
    await disposeScratch(dir);
    expect(await exists(dir)).toBe(false);
  });
});
