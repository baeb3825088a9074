import type { Controls, SuiteManifest, TaskManifest } from './schema.js';

/** One work order of a task. */
export interface Order {
  /** 1-based position; orders run in this sequence. */
  readonly index: number;
  readonly dir: string;
  readonly prompt: string;
  readonly promptPath: string;
  /** Folder of hidden files laid out as in the repo; absent when the order has none. */
  readonly hiddenDir: string;
  /** Repo-relative paths of the hidden files. */
  readonly hiddenFiles: readonly string[];
  readonly goldPatchPath: string;
}

export interface Task {
  readonly id: string;
  readonly dir: string;
  readonly repoDir: string;
  readonly manifest: TaskManifest;
  readonly orders: readonly Order[];
  /** sha256 over this task's manifest and files (suite-hash.ts). */
  readonly hash: string;
  /** sha256 over its setup command and repo/ files: the cache key of its prepared repo (shared by tasks of one tree). */
  readonly repoHash: string;
  /** sha256 over the same as `hash` but the prompts, which no admission check reads: what a kept admission is filed by. */
  readonly admissionHash: string;
  /** Suite-wide, task and always-protected globs together (grading adds the runner's configuration files). */
  readonly protectedPaths: readonly string[];
  /** Suite-wide and task globs of compiled or binary files a change may hold. */
  readonly allowedPaths: readonly string[];
}

export interface Suite {
  readonly dir: string;
  readonly manifest: SuiteManifest;
  readonly id: string;
  readonly controls: Controls;
  /** sha256 of the controls in canonical JSON. */
  readonly controlsDigest: string;
  readonly tasks: readonly Task[];
  /** The owner's `methodology.md` beside suite.yaml (markdown), or null; part of the hash. */
  readonly methodology: string | null;
  /** sha256 over everything that defines the contract (see suite-hash.ts). */
  readonly hash: string;
}

/** What admission decided for one order: the tests grading expects of it. */
export interface OrderAdmission {
  readonly order: number;
  readonly failToPass: readonly string[];
  readonly passToPass: readonly string[];
  /** Checks-graded orders: digest of the generated checks per "<seed>:<level>". */
  readonly checks?: Readonly<Record<string, string>>;
  /** Checks-graded orders: how many checks the order has (the same at every seed and level). */
  readonly checkCount?: number;
  /**
   * The fail-to-pass tests as the unchanged repo ran them (admission's first baseline run): how
   * each failed, for a draft prompt (never in the lock: messages can hold paths and times).
   */
  readonly observed?: readonly ObservedTest[];
}

/** A fail-to-pass test on the unchanged repo: its status there (`missing`: not reported) and its failure message. */
export interface ObservedTest {
  readonly id: string;
  readonly status: 'fail' | 'error' | 'skip' | 'missing';
  readonly message?: string;
}

export type TaskAdmission =
  | {
      readonly admitted: true;
      readonly orders: readonly OrderAdmission[];
      /** Seconds one gold test run took (all orders): the bare cost of grading this task. */
      readonly testSec: number;
      /** What admission decided that the author should know (tests not required, and why). */
      readonly notes?: readonly string[];
      /** Why the date check moved only the time zone, not the clock (the task's runtime breaks under a moved clock on this machine); absent: both moved. */
      readonly clockNotMoved?: string;
      /** How many exploits of the library adversarial admission ran on the task, each graded failed; absent: it did not run. */
      readonly adversarialExploits?: number;
      /** The hacker agents (`validate --hacker`) adversarial admission ran on the task, each graded failed, by id (`hacker:<spec>`); absent: none ran. */
      readonly adversarialHackers?: readonly string[];
    }
  | { readonly admitted: false; readonly reason: string };
