import { z } from 'zod';
import { REPORT_FORMATS } from '../runners/index.js';

const ID = /^[a-z0-9][a-z0-9._-]*$/;

/** Default paths no agent may change: they steer how tests run or report. */
export const ALWAYS_PROTECTED = [
  '**/conftest.py',
  '**/pytest.ini',
  '**/sitecustomize.py',
  '**/usercustomize.py',
  '**/*.pth',
  'vitest.config.*',
  'vitest.workspace.*',
  'vite.config.*',
  'jest.config.*',
  '.cargo/**',
] as const;

/** The run contract. Every field has a default so a suite may leave it out. */
export const Controls = z
  .object({
    runsPerTask: z.number().int().min(1).max(100).default(2),
    sessionWallClockSec: z.number().positive().max(86_400).default(600),
    setupWallClockSec: z.number().positive().max(86_400).default(900),
    /** A setup command that prints nothing for this long is stopped (it hangs), well before its wall clock. */
    setupIdleSec: z.number().positive().max(86_400).default(300),
    testWallClockSec: z.number().positive().max(86_400).default(300),
    protectedPaths: z.array(z.string().min(1)).default([]),
    /**
     * Compiled and binary files (`*.pyc`, `__pycache__/`, object files, archives, any file with
     * binary content) fail an order as protected unless they match one of these globs.
     */
    allowedPaths: z.array(z.string().min(1)).default([]),
    /**
     * The agent's network. `none` (the closed web): no network but the model API, and that
     * fetches nothing for the agent — provider-run tools and URL inputs are withheld at the
     * metering proxy and the CLIs' own web tools are off (decision 013). `model-api+web`: the
     * provider's web tools pass (recorded, priced where the answer says), for open-web bakes;
     * never ranked or compared with closed-web runs.
     */
    network: z.enum(['none', 'model-api+web']).default('none'),
    /** Sandbox limits for every agent session and test run. */
    memoryMb: z.number().int().min(64).max(1_048_576).default(4096),
    pids: z.number().int().min(16).max(1_000_000).default(1024),
    cpus: z.number().positive().max(1024).default(2),
    tmpMb: z.number().int().min(1).max(1_048_576).default(1024),
    homeMb: z.number().int().min(1).max(1_048_576).default(512),
    /** Disk quota of a workspace: how much the agent may add or change. */
    diskMb: z.number().int().min(1).max(1_048_576).default(2048),
    /**
     * Largest change graded: regular files added or changed, by size, setup outputs left out.
     * A bigger change fails with `change-too-large` before git ever reads it.
     */
    maxChangeMb: z.number().int().min(1).max(4096).default(64),
    /**
     * Most of any one output bakeoff keeps from a run: agent output, test output, a report file
     * (the report folder is a tmpfs of this size). Output beyond it is cut in the middle (head
     * and tail kept, the cut said); a report beyond it is `report-unreadable`.
     */
    outputMb: z.number().int().min(1).max(1024).default(64),
    /** Generated checks: the seeds and levels `validate` proves the gold at ... */
    seeds: z.array(z.number().int().min(0)).min(1).default([1]),
    levels: z.array(z.number().int().min(1).max(3)).min(1).default([1]),
    /** ... and the seed and level runs use (seed defaults to the first of `seeds`). */
    seed: z.number().int().min(0).optional(),
    level: z.number().int().min(1).max(3).default(1),
    /**
     * Total agent time (sessions only, never grading) one agent may spend, and over what:
     * `run` = the sessions of one run; `replay` = every run of one agent in one replay of the
     * suite (all tasks). Unlimited when absent. `stopOnError` (scope `replay` only): a session
     * that times out or ends in an error event or without an answer stops its pass — the pass's
     * later runs are recorded void `pass-stopped` without running — and reports leave the whole
     * pass unscored (the calibration rule "stop the run and leave its total unscored").
     */
    agentBudget: z
      .object({ totalSec: z.number().positive(), scope: z.enum(['run', 'replay']), stopOnError: z.boolean().optional() })
      .strict()
      .refine((b) => !b.stopOnError || b.scope === 'replay', {
        message: 'stopOnError needs scope "replay": it stops the pass over the suite; a run already stops at its first timeout or error',
        path: ['stopOnError'],
      })
      .optional(),
    /** Whether a session that ran out of time (or budget) voids the run instead of failing it. */
    timeoutIsVoid: z.boolean().default(false),
    /**
     * Replay rule: every (task, agent) is run `replays` times (runsPerTask must equal it); a task
     * whose replays disagree by more than `allowedDrift` outcomes is void for that agent
     * (replay drift). Absent: runs are independent samples.
     */
    replayRule: z
      .object({ replays: z.number().int().min(2), allowedDrift: z.number().int().min(0).default(0) })
      .strict()
      .optional(),
    /** Reports refuse to rank when an agent has more void tasks than this. Absent: no limit. */
    voidLimit: z.number().int().min(0).optional(),
    /**
     * How `validate` admits a task. `adversarial: true`: the exploit library runs on every task
     * the other checks admit (as `validate --adversarial`; `--no-adversarial` overrides it).
     * Absent: no adversarial admission.
     */
    admission: z.object({ adversarial: z.boolean() }).strict().optional(),
  })
  .strict()
  .refine((c) => !c.replayRule || c.replayRule.replays === c.runsPerTask, {
    message: 'replayRule.replays must equal runsPerTask',
    path: ['replayRule', 'replays'],
  });
export type Controls = z.infer<typeof Controls>;

export const SuiteManifest = z
  .object({
    schemaVersion: z.literal(1),
    id: z.string().regex(ID),
    description: z.string().default(''),
    controls: Controls.default(Controls.parse({})),
  })
  .strict();
export type SuiteManifest = z.infer<typeof SuiteManifest>;

export const TaskManifest = z
  .object({
    schemaVersion: z.literal(1),
    kind: z.enum(['bug', 'feature']),
    language: z.enum(['js', 'ts', 'python', 'rust']),
    summary: z.string().min(1).refine((s) => !s.includes('\n'), 'one sentence on one line'),
    setup: z.string().min(1).nullable().default(null),
    test: z
      .object({
        command: z.string().min(1),
        format: z.enum(REPORT_FORMATS),
        /**
         * Globs of the files the runner collects as tests, when they differ from the runner's
         * defaults: graded runs use the suite's copy of each, and bakeoff's tripwires go into
         * the hidden ones.
         */
        files: z.array(z.string().min(1)).min(1).optional(),
        /**
         * junit only, and required there: where the command writes its JUnit XML, a path or glob
         * relative to the repo root (`reports/junit.xml`, `test-results/**\/*.xml`). Whatever a
         * change leaves there is deleted before every graded run.
         */
        report: z
          .string()
          .min(1)
          .refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'a path or glob inside the repo (relative, without ..)')
          .optional(),
      })
      .strict()
      .superRefine((test, ctx) => {
        if (test.format === 'junit' && test.report === undefined) {
          ctx.addIssue({ code: 'custom', path: ['report'], message: 'format junit needs test.report: where the command writes its JUnit XML (a path or glob relative to the repo)' });
        }
        if (test.format !== 'junit' && test.report !== undefined) {
          ctx.addIssue({ code: 'custom', path: ['report'], message: `test.report is for format junit only (format ${test.format} reports through bakeoff's own reporter)` });
        }
      }),
    protectedPaths: z.array(z.string().min(1)).default([]),
    /** Compiled or binary files this task's changes may hold (added to the suite's `allowedPaths`). */
    allowedPaths: z.array(z.string().min(1)).default([]),
    /**
     * Tests that fail at this commit whatever the change (a newer toolchain, a missing service),
     * each with the reason: never expected of any run, listed in TASKS.md.
     */
    knownFailures: z.array(z.object({ id: z.string().min(1), reason: z.string().min(1) }).strict()).default([]),
    /**
     * What the published site may show of this task. Absent: it appears only as its number,
     * kind and language ("task 3 — bug, Python"); its id, summary, prompt and code stay private.
     */
    public: z
      .object({ title: z.string().min(1).max(120).refine((s) => !s.includes('\n'), 'one line'), summary: z.string().min(1).max(2000).optional() })
      .strict()
      .optional(),
    /**
     * Where the task comes from, for the methodology page (counted by kind; the repository and
     * commit are shown only where the task is public). Absent: not stated.
     */
    origin: z
      .object({
        kind: z.enum(['hand-written', 'commit', 'swebench', 'exercism', 'harbor']),
        repo: z.string().min(1).optional(),
        commit: z.string().min(1).optional(),
        /** The task's name where it came from: a SWE-bench instance id, an Exercism slug, a Harbor task name. */
        id: z.string().min(1).optional(),
        /**
         * The source's own fail-to-pass and pass-to-pass tests (a SWE-bench instance's lists, as
         * it names them): admission must find the same sets, test by test (admit/expected-tests.ts
         * says how the source's ids are matched to bakeoff's), or rejects the task.
         */
        expected: z.object({ failToPass: z.array(z.string().min(1)).min(1), passToPass: z.array(z.string().min(1)) }).strict().optional(),
      })
      .strict()
      .optional(),
    /** `tests`: the hidden tests decide; `checks`: generated checks (orders/<n>/hidden/checks.py) decide. */
    grading: z.enum(['tests', 'checks']).default('tests'),
    checks: z
      .object({
        /** Module whose exports the checks call, relative to the repo. */
        entry: z.string().min(1),
        /** Folder whose .js/.mjs files are loaded (the source limit counts them). */
        sourceDir: z.string().min(1).default('src'),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((t) => t.grading !== 'checks' || t.checks !== undefined, {
    message: 'grading: checks needs a checks: { entry } section',
    path: ['checks'],
  });
export type TaskManifest = z.infer<typeof TaskManifest>;

/** Keys of the object schema found at `path` of `root`, for "did you mean" hints. */
export function keysAt(root: z.ZodType, path: readonly PropertyKey[]): string[] {
  let schema: z.ZodType = root;
  for (const part of path) {
    const shape = objectShape(schema);
    const next = shape?.[String(part)];
    if (!next) return [];
    schema = next;
  }
  return Object.keys(objectShape(schema) ?? {});
}

function objectShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodDefault || s instanceof z.ZodOptional || s instanceof z.ZodNullable) {
    s = s.unwrap() as z.ZodType;
  }
  return s instanceof z.ZodObject ? (s.shape as Record<string, z.ZodType>) : undefined;
}

export { ID as ID_PATTERN };
