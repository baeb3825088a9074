import { describe, expect, it } from 'vitest';
import { selectTasks } from './select-tasks.js';

const suite = ['csv', 'invoice', 'semver', 'wrap'];
const admitted = new Set(['csv', 'semver', 'wrap']);

describe('selectTasks', () => {
  it('is every admitted task in suite order without a selection', () => {
    expect(selectTasks(suite, admitted)).toEqual({ tasks: ['csv', 'semver', 'wrap'], rejected: [] });
  });

  it('keeps the named tasks in suite order, and names those the lock does not admit', () => {
    expect(selectTasks(suite, admitted, { tasks: ['wrap', 'invoice', 'csv'] })).toEqual({ tasks: ['csv', 'wrap'], rejected: ['invoice'] });
  });

  it('takes the first N admitted tasks, after the named ones', () => {
    expect(selectTasks(suite, admitted, { limit: 2 })).toEqual({ tasks: ['csv', 'semver'], rejected: [] });
    expect(selectTasks(suite, admitted, { tasks: ['semver', 'wrap'], limit: 1 })).toEqual({ tasks: ['semver'], rejected: [] });
  });

  it('refuses an id that is not a task of the suite, naming the nearest', () => {
    expect(() => selectTasks(suite, admitted, { tasks: ['semvr'] })).toThrow('--task: expected a task id of the suite (csv, invoice, semver, wrap), received "semvr" (did you mean semver?)');
    expect(() => selectTasks(suite, admitted, { limit: 0 })).toThrow('--limit: expected a whole number >= 1, received 0');
  });
});
