import { describe, expect, it } from 'vitest';
import { testRun } from '../view/test-runs.test-support.js';
import { meteringNotes } from '../view/metering-notes.js';
import { describeMetering } from './describe-metering.js';

const model = (id: string, auth?: 'subscription') =>
  testRun({ id, agent: { id, harness: 'codex', version: '1', model: 'gpt-5.5', effort: null, ...(auth ? { auth } : {}) }, runtime: { upstream: 'vendor', prices: 'genai-prices 0.1.8' } });

describe('how a report says its tokens and cost were measured', () => {
  it('labels subscription runs, and says API runs are billed at the cost shown only when some ran on a key', () => {
    const both = describeMetering(meteringNotes([model('sub', 'subscription'), model('api')]));
    expect(both[2]).toBe("Subscription runs (sub): cost is the list-price equivalent of the metered tokens; billed: subscription (the plan's quota, not an API bill). API runs: billed at the cost shown.");
    const onlySubscription = describeMetering(meteringNotes([model('sub', 'subscription')]));
    expect(onlySubscription[2]).toBe("Subscription runs (sub): cost is the list-price equivalent of the metered tokens; billed: subscription (the plan's quota, not an API bill).");
    expect(describeMetering(meteringNotes([model('api')]))).toHaveLength(2);
    // no model agent: nothing to say
    expect(describeMetering(meteringNotes([testRun()]))).toEqual([]);
  });
});
