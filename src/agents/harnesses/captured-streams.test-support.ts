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

/** How a harness's tools took the scripted gold session's three steps. */
export interface GoldSteps {
  /** Writing NOTES.md: the harness's name for the file path argument (`file_path`, `filePath`, `path`). */
  readonly write: Omit<GoldStep, 'input'> & { readonly pathKey: string };
  /** Deleting README.md with the shell tool (its input is the command). */
  readonly shell: Omit<GoldStep, 'input'>;
  /** Fixing src/math.mjs: each harness's edit tool takes its own arguments. */
  readonly edit: GoldStep;
}

/**
 * The transcript of a `scripted-gold.jsonl` capture: the gold script says, calls and gets an
 * answer for each of its three steps (write NOTES.md, delete README.md, fix src/math.mjs), then
 * gives its answer. The file it writes and the command it runs are the same for every harness.
 */
export function scriptedGoldTranscript({ write, shell, edit }: GoldSteps): TranscriptEntry[] {
  const steps: readonly (GoldStep & { said: string; summary: string })[] = [
    { ...write, said: 'I will create NOTES.md.', summary: '/workspace/NOTES.md', input: `${write.pathKey}: /workspace/NOTES.md\ncontent:\n  # Notes\n  \n  add() now adds.` },
    { ...shell, said: 'I will run a command: delete readme.md.', summary: "rm '/workspace/README.md'", input: "command: rm '/workspace/README.md'" },
    { ...edit, said: 'I will update src/math.mjs.', summary: '/workspace/src/math.mjs' },
  ];
  return [
    ...steps.flatMap(({ tool, input, output, said, summary }): TranscriptEntry[] => [
      { kind: 'text', text: said },
      { kind: 'tool-call', tool, summary, input },
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
