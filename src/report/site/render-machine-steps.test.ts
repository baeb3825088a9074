import { describe, expect, it } from 'vitest';
import { renderMachineSteps } from './render-machine-steps.js';

describe('renderMachineSteps', () => {
  it('draws each step with its clock, wall, CPU, wait, held-back time and verdict', () => {
    const html = renderMachineSteps({
      steps: [
        { step: 'session', order: 1, attempt: 1, timedOut: false, limitMs: 600_000, wallMs: 12_000, cpuMs: 3000, waitMs: 500, heldMs: 400, heldFrom: 'pressure', hostPressure: 0.2, starved: false },
        { step: 'tests', order: 1, attempt: 1, timedOut: true, limitMs: 300_000, wallMs: 300_000, cpuMs: 9000, waitMs: 280_000, heldMs: 270_000, heldFrom: 'pressure', hostPressure: 1, starved: true },
        { step: 'tests', order: 1, attempt: 2, timedOut: false, limitMs: 1_200_000, wallMs: 20_000, cpuMs: 15_000, waitMs: 100, heldMs: 100, heldFrom: 'pressure', hostPressure: null, starved: false },
      ],
    });
    expect(html).toContain('<td>agent session</td>');
    expect(html).toContain('<td>test run (re-run 1)</td>');
    expect(html).toContain('270.0 s (90 %)');
    expect(html).toContain('starved, timed out');
    expect(html).toContain('1200.0 s');
  });

  it('draws nothing for a run stored before bakeoff measured the machine', () => {
    expect(renderMachineSteps({})).toBe('');
    expect(renderMachineSteps({ steps: [] })).toBe('');
  });
});
