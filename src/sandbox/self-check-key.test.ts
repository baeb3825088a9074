import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { selfCheckKey } from './self-check-key.js';

describe('selfCheckKey', () => {
  it('is the same twice on an unchanged machine, and names the kernel, bwrap and setpriv, the user namespace switch and the mounts', () => {
    const now = new Date('2026-12-06T10:00:00Z');
    const key = selfCheckKey(process.env, now);
    expect(selfCheckKey(process.env, now)).toEqual(key);
    expect(key.kernel).toContain(os.release());
    expect(key.programs.bwrap?.path).toMatch(/bwrap$/);
    expect(key.programs.setpriv?.path).toMatch(/setpriv$/);
    expect(key.sysctls['/proc/sys/user/max_user_namespaces']).toMatch(/^\d+$/);
    expect(key.mounts.some((m) => m.startsWith('/ '))).toBe(true);
  });

  it('changes with the day, and when bwrap is not where PATH leads', () => {
    const key = selfCheckKey(process.env, new Date('2026-12-06T10:00:00Z'));
    expect(selfCheckKey(process.env, new Date('2026-12-07T00:00:01Z'))).not.toEqual(key);
    expect(selfCheckKey({ PATH: '/nonexistent' }, new Date('2026-12-06T10:00:00Z')).programs.bwrap).toBeNull();
  });
});
