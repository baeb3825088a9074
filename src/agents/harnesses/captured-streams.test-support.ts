import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TranscriptEntry } from './transcript.js';
import type { Harness, HarnessReport, SetupInput } from './types.js';

/*
 * What the harness adapters' own tests share: the streams captured from the pinned CLIs
 * (test/fixtures/harness-streams/<harness>/, see its README), what the sessions behind them did
 * (the same for every harness), and a setup input. Test support, left out of the build.
 */

/** A captured stream, `test/fixtures/harness-streams/<harness>/<file>`. */
export function capturedStream(harness: string, file: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../test/fixtures/harness-streams/${harness}/${file}`, import.meta.url)), 'utf8');
}

/**
 * The report of a `success.jsonl` capture: the stub's session ended with this answer and no
 * error. `report` gives what the harness itself prints (tokens, cost, turns, model, version);
 * what it leaves out is null.
 */
export function stubSuccessReport(report: Pick<HarnessReport, 'tokens'> & Partial<HarnessReport>): HarnessReport {
  return { costUsd: null, turns: null, finalMessage: 'Done: created hello.txt.', errors: [], failed: false, model: null, version: null, ...report };
}

/** How a harness told one step of the scripted gold session: the call's tool and input, and the tool's answer. */
export interface GoldStep {
  readonly tool: string;
  readonly input: string;
  readonly output: string;
}

/**
 * The transcript of a `scripted-gold.jsonl` capture: the gold script says, calls and gets an
 * answer for each of its three steps (write NOTES.md, delete README.md, fix src/math.mjs), then
 * gives its answer. `steps` are how the harness's own tools did them.
 */
export function scriptedGoldTranscript(steps: readonly [write: GoldStep, remove: GoldStep, edit: GoldStep]): TranscriptEntry[] {
  const said = ['I will create NOTES.md.', 'I will run a command: delete readme.md.', 'I will update src/math.mjs.'];
  const summaries = ['/workspace/NOTES.md', "rm '/workspace/README.md'", '/workspace/src/math.mjs'];
  return [
    ...steps.flatMap(({ tool, input, output }, i): TranscriptEntry[] => [
      { kind: 'text', text: said[i]! },
      { kind: 'tool-call', tool, summary: summaries[i]!, input },
      { kind: 'tool-result', tool, output, isError: false },
    ]),
    { kind: 'final', text: 'Done: created NOTES.md, deleted README.md, updated src/math.mjs.' },
  ];
}

/** The tool results of a `failed-command.jsonl` capture: the `cat` of a missing file (an error), then the `ls`. */
export function failedCommandResults(tool: string, [failed, listing]: readonly [failed: string, listing: string]): TranscriptEntry[] {
  return [
    { kind: 'tool-result', tool, output: failed, isError: true },
    { kind: 'tool-result', tool, output: listing, isError: false },
  ];
}

/** The list prices (per MTok) the pi and OpenCode captures were made with, which their reports price at. */
export const STUB_PRICES = { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 } as const;

/** A setup input for `installDir`, `model` and `effort` (and any other field given): home /home/a, workspace /w, prompt "Do it", key k. */
export function setupInputOf(input: Pick<SetupInput, 'installDir' | 'model' | 'effort'> & Partial<SetupInput>): SetupInput {
  return { home: '/home/a', workspace: '/w', prompt: 'Do it', baseUrl: 'http://127.0.0.1:9', apiKey: 'k', prices: null, ...input };
}

/** The JSON `file` a harness's setup writes into HOME, for `input` with `overrides` (null when it writes none). */
export function homeJsonOf(harness: Pick<Harness, 'setup'>, input: SetupInput, file: string): (overrides?: Partial<SetupInput>) => unknown {
  return (overrides = {}) => JSON.parse(harness.setup({ ...input, ...overrides }).homeFiles[file] ?? 'null');
}
