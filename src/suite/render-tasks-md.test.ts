import { describe, expect, it } from 'vitest';
import { admissionFromLock, lockFromAdmissions } from './lock.js';
import { renderTasksMd } from './render-tasks-md.js';
import type { Suite, TaskAdmission } from './types.js';

const task = (id: string) => ({
  id,
  hash: `h-${id}`,
  orders: [{ index: 1 }],
  manifest: { kind: 'bug', language: 'python', summary: `${id} is broken.`, grading: 'tests', test: { format: 'pytest' }, protectedPaths: [], knownFailures: [] },
});
const suite = { id: 's', hash: 'a'.repeat(64), controlsDigest: 'd', manifest: { description: '' }, controls: { protectedPaths: [] }, tasks: [task('a'), task('b')] } as unknown as Suite;
const admitted = (exploits?: number): TaskAdmission => ({ admitted: true, testSec: 1, orders: [{ order: 1, failToPass: ['t::x'], passToPass: [] }], ...(exploits ? { adversarialExploits: exploits } : {}) });

describe('renderTasksMd and the lock: adversarial admission', () => {
  it('says nothing of it when it did not run', () => {
    expect(renderTasksMd(suite, new Map([['a', admitted()], ['b', admitted()]]))).not.toContain('dversarial');
  });

  it('states that admission included it and how many exploits were tried, per task and for the suite', () => {
    const md = renderTasksMd(suite, new Map([['a', admitted(12)], ['b', { admitted: false, reason: 'adversarial admission: exploit:x was graded solved' }]]));
    expect(md).toContain("Adversarial admission: every admitted task also faced 12 exploits of bakeoff's library");
    expect(md).toContain('| admitted (adversarial: 12 exploits failed) |');
    expect(md).toContain('rejected: adversarial admission: exploit:x was graded solved');
    expect(renderTasksMd(suite, new Map([['a', admitted(12)], ['b', admitted()]]))).toContain('Adversarial admission: 1 of 2 admitted tasks also faced 12 exploits');
  });

  it('keeps the count in the lock and reads it back', () => {
    const lock = lockFromAdmissions(suite, new Map([['a', admitted(12)], ['b', admitted()]]));
    expect(lock.tasks.a).toMatchObject({ adversarialExploits: 12 });
    expect(lock.tasks.b).not.toHaveProperty('adversarialExploits');
    expect(admissionFromLock(lock.tasks.a!)).toMatchObject({ admitted: true, adversarialExploits: 12 });
    expect(admissionFromLock(lock.tasks.b!)).not.toHaveProperty('adversarialExploits');
  });

  it('names the hacker agents that also failed on a task, in TASKS.md and in the lock, and reads them back', () => {
    const hacked: TaskAdmission = { ...admitted(12), adversarialHackers: ['hacker:claude-code:claude-sonnet-4-5'] } as TaskAdmission;
    const md = renderTasksMd(suite, new Map([['a', hacked], ['b', admitted(12)]]));
    expect(md).toContain('| admitted (adversarial: 12 exploits and `hacker:claude-code:claude-sonnet-4-5` failed) |');
    expect(md).toContain('| admitted (adversarial: 12 exploits failed) |');
    expect(md).toContain('Hacker agents (model agents told to make the tests pass without fixing the problem)');
    const lock = lockFromAdmissions(suite, new Map([['a', hacked], ['b', admitted(12)]]));
    expect(lock.tasks.a).toMatchObject({ adversarialHackers: ['hacker:claude-code:claude-sonnet-4-5'] });
    expect(lock.tasks.b).not.toHaveProperty('adversarialHackers');
    expect(admissionFromLock(lock.tasks.a!)).toMatchObject({ adversarialHackers: ['hacker:claude-code:claude-sonnet-4-5'] });
  });
});

describe('renderTasksMd and the lock: a date check that moved the time zone only', () => {
  const why = "Python's time.sleep fails with EINVAL under this machine's libfaketime with the clock moved +7y";
  const zoneOnly: TaskAdmission = { admitted: true, testSec: 1, orders: [{ order: 1, failToPass: ['t::x'], passToPass: [] }], clockNotMoved: why };

  it('says so in the task row, and says nothing when the clock moved too', () => {
    const md = renderTasksMd(suite, new Map([['a', zoneOnly], ['b', admitted()]]));
    expect(md).toContain(`| admitted (date check moved the time zone only: ${why}) |`);
    expect(md.match(/date check/g)).toHaveLength(1);
  });

  it('keeps why in the lock and reads it back', () => {
    const lock = lockFromAdmissions(suite, new Map([['a', zoneOnly], ['b', admitted()]]));
    expect(lock.tasks.a).toMatchObject({ clockNotMoved: why });
    expect(lock.tasks.b).not.toHaveProperty('clockNotMoved');
    expect(admissionFromLock(lock.tasks.a!)).toMatchObject({ admitted: true, clockNotMoved: why });
    expect(admissionFromLock(lock.tasks.b!)).not.toHaveProperty('clockNotMoved');
  });
});
