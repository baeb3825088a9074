import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { currentProcess } from '../util/index.js';
import { disposeScratch, freshScratchRoot, sweepStaleScratch } from './workspace.js';

const mounted = async (dir: string): Promise<boolean> => (await readFile('/proc/self/mountinfo', 'utf8')).includes(` ${dir}/m `);

describe('sweepStaleScratch', () => {
  it('unmounts and removes the scratch root of a bakeoff that died, and leaves a live one alone', async () => {
    const dead = await freshScratchRoot(`sweep-test dead ${Date.now()}`);
    const live = await freshScratchRoot(`sweep-test live ${Date.now()}`);
    for (const dir of [dead, live]) {
      await mkdir(`${dir}/m`);
      await execa('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'bakeoff-sweep-test', `${dir}/m`]);
    }
    // the dead one's owner: a process that started at another tick (its pid reused, or gone)
    await writeFile(`${dead}.owner`, JSON.stringify({ ...currentProcess(), startTicks: '1' }));
    expect(await sweepStaleScratch()).toBeGreaterThanOrEqual(1);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(`${dead}.owner`)).toBe(false);
    expect(await mounted(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(await mounted(live)).toBe(true);
    await disposeScratch(live);
    expect(existsSync(live)).toBe(false);
    expect(await mounted(live)).toBe(false);
  });
});
