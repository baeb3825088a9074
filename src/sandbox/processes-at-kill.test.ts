import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { orderFile } from '../store/index.js';
import { writeProcessesAtKill } from './processes-at-kill.js';

describe('writeProcessesAtKill', () => {
  it('writes beside the output log each process of the cgroup: pid, state, wait channel, command; a pid gone meanwhile is left out', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-at-kill-'));
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => sleeper.once('spawn', resolve));
      const procs = path.join(dir, 'cgroup.procs');
      await writeFile(procs, `${sleeper.pid}\n999999999\n`);
      await writeProcessesAtKill(procs, path.join(dir, 'agent.log'), 'killed at its wall clock (600 s)');
      const lines = (await readFile(orderFile(dir, 'atKill'), 'utf8')).trimEnd().split('\n');
      expect(lines[0]).toBe('killed at its wall clock (600 s); its processes then (pid state wchan command):');
      expect(lines.slice(1)).toHaveLength(1);
      expect(lines[1]).toMatch(new RegExp(`^${sleeper.pid} [RS] \\S+ sleep 30$`));
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('never throws: an unreadable cgroup leaves no file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-at-kill-'));
    await writeProcessesAtKill(path.join(dir, 'missing'), path.join(dir, 'agent.log'), 'x');
    await expect(readFile(orderFile(dir, 'atKill'), 'utf8')).rejects.toThrow();
  });
});
