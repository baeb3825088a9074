import type { RunRecord } from '../../types.js';
import { formatDuration, formatTokens } from '../render/format-cells.js';
import { escapeHtml } from './escape-html.js';
import { renderChecks } from './render-checks.js';
import { renderDiff } from './render-diff.js';
import { renderMachineSteps } from './render-machine-steps.js';
import { clip, clipped, renderTranscript, TEXT_LIMITS } from './render-transcript.js';
import { RUN_PAGE_CSS } from './run-page-css.js';
import type { PrivateOrderDetail, SiteSession } from './site-input.js';

/** Diff lines one run page draws at most, over all its orders. */
export const DIFF_LINES_PER_PAGE = 2000;

/** Model requests listed per session at most. */
const MAX_REQUEST_ROWS = 200;

/**
 * What a private site's run page adds: the outcome's detail, per order the time and model
 * requests, and per order the prompt, the session as a transcript (or, for a built-in agent, its output),
 * the change as a diff (all diffs of the page share {@link DIFF_LINES_PER_PAGE}), the test
 * results and the raw logs. Pure.
 */
export function renderRunDetail(run: RunRecord, detail: readonly PrivateOrderDetail[]): string {
  const o = run.outcome;
  const outcomeDetail = o.kind !== 'solved' && o.detail ? `<h2>Outcome detail</h2><pre>${escapeHtml(o.detail)}</pre>` : '';
  let diffBudget = DIFF_LINES_PER_PAGE;
  const orders = detail.map((d) => {
    const f = d.files;
    const where = (file: string): string => `${file} in the results folder`;
    // a file's path inside the order's folder (the grade folder's `checks` file)
    const orderFolder = f.prompt.slice(0, f.prompt.lastIndexOf('/') + 1);
    const inOrder = (file: string): string => (file.startsWith(orderFolder) ? file.slice(orderFolder.length) : file);
    const diff = d.patch === null ? { html: `<p>(no ${escapeHtml(inOrder(f.patch))} stored: the change was refused or never captured)</p>`, lines: 0 } : renderDiff(d.patch, { maxLines: Math.max(diffBudget, 0), whole: where(f.patch) });
    diffBudget -= diff.lines;
    return [
      `<h2 id="order-${d.order}">Order ${d.order}</h2>`,
      `<h3>Prompt</h3>${d.prompt === null ? '<p>(not stored)</p>' : `<pre class="prompt">${clipped(d.prompt, TEXT_LIMITS, where(f.prompt))}</pre>`}`,
      `<h3>Session</h3>${renderSession(run, d, where(f.stream), where(f.agentLog), inOrder(f.agentLog))}`,
      `<h3>Change after this order</h3>${diff.html}`,
      `<h3>Tests</h3>${renderChecks(d.checks)}`,
      ...(d.session && d.session.requests.length > 0 ? [details(`model requests (${d.session.requests.length})`, renderRequests(d.session))] : []),
      details(`test output (${inOrder(f.testOutput)} or ${inOrder(f.checks)})`, block(d.testOutput, where(f.testOutput.slice(0, f.testOutput.lastIndexOf('/') + 1)))),
      ...(run.agent.harness === 'builtin' ? [] : [details(`agent output (${inOrder(f.agentLog)}: the CLI's stderr)`, block(d.agentLog, where(f.agentLog)))]),
    ].join('\n');
  });
  return [`<style>${RUN_PAGE_CSS}</style>`, outcomeDetail, renderTimings(run, detail), renderMachineSteps(run), ...orders].join('\n');
}

/** The transcript, or what stands for it: a built-in agent's output, or why there is none. */
function renderSession(run: RunRecord, d: PrivateOrderDetail, whole: string, wholeLog: string, logName: string): string {
  if (run.agent.harness === 'builtin') {
    const note = `<p>${escapeHtml(run.agent.id)} is a built-in agent: it prints no session stream, so there is no transcript. Its output (${escapeHtml(logName)}):</p>`;
    return `${note}${block(d.agentLog, wholeLog)}`;
  }
  const silent = (d.transcript === null || d.transcript.length === 0) && (d.agentLog ?? '').trim() === '';
  const known = d.session !== null && silent ? renderSilentSession(d, d.session) : '';
  if (d.transcript === null) return `<p>No session stream was recorded for this order${d.session === null ? ' (no session ran)' : ''}.</p>${known}`;
  return known + renderTranscript({ entries: d.transcript, whole });
}

/**
 * What is known of a session that left no transcript and no output (a CLI that sat silent until
 * its clock): how long it ran and how it ended, its last model request (or that none reached the
 * proxy), and what its processes were doing when the clock killed them.
 */
function renderSilentSession(d: PrivateOrderDetail, s: SiteSession): string {
  const ended = s.timedOut ? 'was killed at its wall clock' : s.exitCode === null ? 'ended by a signal' : `exited with ${s.exitCode}`;
  const last = s.requests.at(-1);
  const request =
    last === undefined
      ? 'No model request reached the metering proxy: the CLI never asked the model.'
      : `Its last model request (#${last.seq} of ${s.requests.length}, ${escapeHtml(last.model ?? 'model not named')}) ${last.failure ? `failed: ${escapeHtml(last.failure)}` : last.status === null ? 'got no answer' : `was answered ${last.status}`} after ${Math.round(last.latencyMs)} ms.`;
  const atKill = d.atKill ? `<p>Its processes when it was killed (pid, state: R running, S sleeping, D waiting on I/O, T stopped; the kernel function it waited in; command):</p><pre>${escapeHtml(d.atKill)}</pre>` : '<p>What its processes were doing when it ended was not recorded.</p>';
  return `<div class="silent"><p><strong>This session left no transcript and no output.</strong> It ran ${escapeHtml(formatDuration(s.durationMs / 1000))} and ${ended}. ${request}</p>${atKill}</div>`;
}

/** Per order: agent time, exit, model requests and tokens; grading time is known per run only. */
function renderTimings(run: RunRecord, detail: readonly PrivateOrderDetail[]): string {
  const rows = detail.map((d) => {
    const s = d.session;
    if (s === null) return `<tr><td class="num">${d.order}</td><td colspan="5">no session (the run ended before this order)</td></tr>`;
    const failed = s.requests.filter((r) => r.failure !== null || (r.status !== null && r.status >= 400)).length;
    const exit = s.timedOut ? 'timed out' : s.exitCode === null ? '–' : String(s.exitCode);
    return `<tr><td class="num">${d.order}</td><td class="num">${escapeHtml(formatDuration(s.durationMs / 1000))}</td><td>${escapeHtml(exit)}${s.error ? ` — ${escapeHtml(s.error)}` : ''}</td>`
      + `<td class="num">${s.requests.length}${failed ? ` (${failed} failed)` : ''}</td><td class="num">${escapeHtml(formatTokens(s.tokensIn))} / ${escapeHtml(formatTokens(s.tokensOut))}</td></tr>`;
  });
  const head = '<tr><th class="num">order</th><th class="num">agent time</th><th>exit</th><th class="num">model requests</th><th class="num">tokens in / out</th></tr>';
  return [
    '<h2>Time and requests per order</h2>',
    `<p class="context">Started ${escapeHtml(run.startedAt)}, finished ${escapeHtml(run.finishedAt)}; agent time ${escapeHtml(formatDuration(run.agentSec))}, grading time ${escapeHtml(formatDuration(run.gradeSec))} over all orders (grading time is recorded per run, not per order).</p>`,
    `<table class="orders"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`,
  ].join('');
}

function renderRequests(session: SiteSession): string {
  const rows = session.requests.slice(0, MAX_REQUEST_ROWS).map((r) => {
    const status = r.failure ?? (r.status === null ? 'no answer' : String(r.status));
    return `<tr><td class="num">${r.seq}</td><td>${escapeHtml(r.model ?? '–')}</td><td>${escapeHtml(status)}</td><td class="num">${Math.round(r.latencyMs)} ms</td><td class="num">${escapeHtml(formatTokens(r.input))} / ${escapeHtml(formatTokens(r.output))}</td></tr>`;
  });
  const more = session.requests.length > MAX_REQUEST_ROWS ? `<p class="context">${session.requests.length - MAX_REQUEST_ROWS} more requests not listed.</p>` : '';
  return `<table class="requests"><thead><tr><th class="num">#</th><th>model</th><th>status</th><th class="num">latency</th><th class="num">tokens in / out</th></tr></thead><tbody>${rows.join('')}</tbody></table>${more}`;
}

function details(summary: string, body: string): string {
  return `<details><summary>${escapeHtml(summary)}</summary>${body}</details>`;
}

/** A stored log, escaped and cut (400 lines, 40 000 characters) with a note. */
function block(text: string | null, whole: string): string {
  if (text === null) return '<p>(not stored)</p>';
  const { shown, cutLines, cutChars } = clip(text, { lines: 400, chars: 40000 });
  const cut = cutChars === 0 ? '' : `<p class="tr-cut">… cut: ${cutLines > 0 ? `${cutLines} more lines, ` : ''}${cutChars} more characters not shown (the whole text is ${escapeHtml(whole)}).</p>`;
  return `<pre>${escapeHtml(shown)}</pre>${cut}`;
}
