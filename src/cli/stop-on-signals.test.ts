import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invokedAs } from './stop-on-signals.js';

describe('invokedAs', () => {
  it('repeats the command the way the user started bakeoff', () => {
    expect(invokedAs({ npm_command: 'exec' }, '/work/proj/bin/bakeoff.js')).toBe('npx bakeoff');
    expect(invokedAs({}, '/usr/local/bin/bakeoff')).toBe('bakeoff');
    expect(invokedAs({ npm_command: 'test' }, path.join(process.cwd(), 'bin/bakeoff.js'))).toBe('node bin/bakeoff.js');
    expect(invokedAs({}, '/elsewhere/my dir/bakeoff.js')).toBe("node '/elsewhere/my dir/bakeoff.js'");
  });
});
