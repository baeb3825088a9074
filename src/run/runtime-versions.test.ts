import { describe, expect, it } from 'vitest';
import type { Task } from '../suite/index.js';
import { toolchainsOf } from './runtime-versions.js';

const task = (manifest: Partial<Task['manifest']>): Pick<Task, 'manifest'> => ({ manifest: { language: 'js', grading: 'tests', test: { format: 'node-test' }, ...manifest } as Task['manifest'] });

describe('toolchainsOf', () => {
  it('asks only the toolchains the tasks run on', () => {
    expect(toolchainsOf([task({}), task({ language: 'ts', test: { format: 'vitest' } as Task['manifest']['test'] })])).toEqual([]);
    expect(toolchainsOf([task({ language: 'python', test: { format: 'pytest' } as Task['manifest']['test'] })])).toEqual(['python']);
    expect(toolchainsOf([task({ language: 'rust', test: { format: 'cargo' } as Task['manifest']['test'] }), task({})])).toEqual(['cargo']);
  });

  it('asks Python for generated checks (their generators are Python) and for pytest reports of any language', () => {
    expect(toolchainsOf([task({ grading: 'checks' })])).toEqual(['python']);
    expect(toolchainsOf([task({ test: { format: 'pytest' } as Task['manifest']['test'] })])).toEqual(['python']);
    expect(toolchainsOf([task({ test: { format: 'cargo' } as Task['manifest']['test'] }), task({ language: 'python' })])).toEqual(['python', 'cargo']);
  });
});
