import { publish } from '../../api/publish.js';
import { createNotes, printNote } from '../notes.js';
import { EXIT, lockedWork, type CliIo } from '../io.js';
import { renderVerify } from './verify.js';

export interface PublishFlags {
  readonly out: string;
  /** Add each run's change, agent output and test output to its page. */
  readonly private: boolean;
  readonly suite?: string;
  readonly concurrency: number;
  /** Wait for another process using the results folder to finish, instead of refusing. */
  readonly wait: boolean;
  /** `--sandbox <name>` and its alias `--unsafe-no-sandbox` (`sandboxOf`). */
  readonly sandbox?: string;
  readonly unsafeNoSandbox?: boolean;
  readonly allowDraftPrompts: boolean;
  /** Re-grade every run even when an earlier clean re-check of the unchanged folder stands. */
  readonly reverify?: boolean;
}

/**
 * `bakeoff publish <results> --out DIR [--private]`: the library's `publish()`. Refused on any
 * mismatch (exit 1, naming the runs) or any run that could not be re-checked (exit 3), writing
 * nothing.
 */
export async function publishCommand(results: string, flags: PublishFlags, io: CliIo): Promise<number> {
  const notes = createNotes(io.stderr);
  const outcome = await publish({
    results,
    out: flags.out,
    private: flags.private,
    allowDraftPrompts: flags.allowDraftPrompts,
    ...(flags.reverify ? { reverify: true } : {}),
    ...(flags.suite ? { suite: flags.suite } : {}),
    ...lockedWork(flags, io),
    onEvent: (event) => printNote(notes, event),
  });
  if (!outcome.published) {
    io.stderr.write(renderVerify(outcome.verified));
    io.stderr.write(`bakeoff: refusing to publish ${results}: the stored results do not re-check; nothing was written\n`);
    return outcome.why === 'mismatches' ? EXIT.checksFailed : EXIT.infra;
  }
  if (outcome.verified.reusedFrom === undefined) io.stderr.write(`verified ${outcome.verified.runs.length} runs: 0 mismatches\n`);
  io.stdout.write(`wrote ${outcome.pages} pages to ${flags.out}${flags.private ? ' (PRIVATE: contains task ids, prompts, transcripts, changes, test results and agent and test output)' : ''}\n`);
  return EXIT.ok;
}
