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
  /** sha256 over this task's manifest and files: the cache key of its prepared repo. */
  readonly hash: string;
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
  /** sha256 over everything that defines the contract (see suite-hash.ts). */
  readonly hash: string;
}
