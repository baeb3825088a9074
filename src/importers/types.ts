/** Where an import writes: the one request every importer takes (its own options come beside it). */
export interface ImportRequest {
  /** What the importer reads: a file or a folder (`Importer.reads` says which). */
  readonly source: string;
  /** The suite folder the tasks go to; made (with a suite.yaml of defaults) when it has none. */
  readonly suiteDir: string;
}

/** What became of one item of a source (an instance, an exercise, a task folder, a commit). */
export type ImportedTask =
  | {
      /** The item as the source names it (instance id, exercise slug, folder, commit). */
      readonly item: string;
      readonly written: true;
      /** The task id it became. */
      readonly id: string;
      /** The task folder written. */
      readonly taskDir: string;
    }
  | {
      readonly item: string;
      readonly written: false;
      /** Why it cannot be a task, in the user's words (file and field where there is one). */
      readonly reason: string;
    };

/**
 * One importer: tasks written into a suite from another source, under its registry name
 * (`registry.ts`). It only writes files — each task folder whole or not at all
 * (`writeTaskFolder`) — and never grades: admission is the caller's next step. An item that
 * cannot be a task is refused with the reason, never half-written; a source that cannot be read
 * at all throws an `InputError`/`UserError` naming the file.
 */
export interface Importer<Options extends object = object> {
  /** What `source` is, for help texts and errors. */
  readonly reads: string;
  /** A task folder per item of the source. */
  importTasks(request: ImportRequest & Options): Promise<readonly ImportedTask[]>;
}
