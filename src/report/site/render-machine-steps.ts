import type { RunRecord, StepRecord } from '../../types.js';
import { escapeHtml } from './escape-html.js';

/**
 * The private run page's "what the machine gave each step" (decision 011): per sandboxed
 * session and test run, its clock, wall time, the CPU time its processes got, their summed
 * run-queue wait, the time it was held back from a CPU by others, the host's CPU pressure, and
 * whether it counts as starved (a starved test timeout is re-run; a starved session timeout is
 * void). Empty for runs stored before bakeoff measured it. Pure.
 */
export function renderMachineSteps(run: Pick<RunRecord, 'steps'>): string {
  const steps = run.steps ?? [];
  if (steps.length === 0) return '';
  const sec = (ms: number | null): string => (ms === null ? '–' : `${(ms / 1000).toFixed(1)} s`);
  const rows = steps.map((s: StepRecord) => {
    const name = s.step === 'session' ? 'agent session' : s.attempt > 1 ? `test run (re-run ${s.attempt - 1})` : 'test run';
    const held = `${sec(s.heldMs)}${s.wallMs > 0 ? ` (${Math.round((100 * s.heldMs) / s.wallMs)} %)` : ''}`;
    const verdict = s.starved ? (s.timedOut ? 'starved, timed out' : 'starved') : s.timedOut ? 'timed out' : '–';
    const cells = [String(s.order), name, sec(s.limitMs), sec(s.wallMs), sec(s.cpuMs), sec(s.waitMs), held, s.hostPressure === null ? '–' : `${Math.round(s.hostPressure * 100)} %`, verdict];
    return `<tr>${cells.map((c, i) => `<td${i === 1 || i === 8 ? '' : ' class="num"'}>${escapeHtml(c)}</td>`).join('')}</tr>`;
  });
  const head = ['order', 'step', 'clock', 'wall', 'CPU', 'run-queue wait', 'held back', 'host pressure', '']
    .map((h, i) => `<th${i === 1 || i === 8 ? '' : ' class="num"'}>${escapeHtml(h)}</th>`)
    .join('');
  return [
    '<h2>What the machine gave each step</h2>',
    '<p class="context">Wall time, the CPU time the step\'s processes got, their run-queue wait (runnable, waiting for a CPU; summed over tasks), and the time the machine held the step back from a CPU it could have used. A step held back a quarter of its wall time or more, and at least half a second, is starved: a test run that timed out starved is re-run alone with a longer clock, a session that ran out of time starved is void (machine-starved). The host\'s CPU pressure is context only.</p>',
    `<table class="orders"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`,
  ].join('');
}
