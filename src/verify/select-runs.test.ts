import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../types.js';
import { selectRuns } from './verify-results.js';

// only the fields selectRuns reads
const run = (id: string, task: string, agent: string): RunRecord => ({ id, task, agent: { id: agent } }) as unknown as RunRecord;
const RUNS = [run('1', 'add', 'gold'), run('2', 'add', 'noop'), run('3', 'py-add', 'gold'), run('4', 'py-add', 'noop')];
const ids = (runs: RunRecord[]): string[] => runs.map((r) => r.id);

describe('selectRuns', () => {
  it('keeps the runs of any task asked for by any agent asked for; an empty list means all', () => {
    expect(ids(selectRuns(RUNS, { tasks: ['add'], agents: [] }, '/r'))).toEqual(['1', '2']);
    expect(ids(selectRuns(RUNS, { tasks: [], agents: ['noop'] }, '/r'))).toEqual(['2', '4']);
    expect(ids(selectRuns(RUNS, { tasks: ['py-add', 'add'], agents: ['gold'] }, '/r'))).toEqual(['1', '3']);
  });

  it('refuses an id no stored run has, naming the ids there are', () => {
    expect(() => selectRuns(RUNS, { tasks: ['add', 'sub'], agents: [] }, '/r')).toThrow('--task: expected a task id of the runs stored in /r (add, py-add), received "sub"');
    expect(() => selectRuns(RUNS, { tasks: [], agents: ['gpt'] }, '/r')).toThrow('--agent: expected an agent id of the runs stored in /r (gold, noop), received "gpt"');
  });

  it('refuses a selection no stored run is in', () => {
    const runs = [run('1', 'add', 'gold'), run('2', 'py-add', 'noop')];
    expect(() => selectRuns(runs, { tasks: ['add'], agents: ['noop'] }, '/r')).toThrow('/r: no stored run is of task add by agent noop');
  });
});
