import { publish } from '../../api/publish.js';
import { createNotes, printNote } from '../notes.js';
import { PUBLISH_OPTIONS, type PublishFlags } from '../command-options.js';
import { EXIT, lockedWork, type CliIo } from '../io.js';
import { requestOf } from '../option-table.js';
import { renderVerify } from './verify.js';


/**
 * `bakeoff publish <results> --out DIR [--private]`: the library's `publish()`. Refused on any
 * mismatch (exit 1, naming the runs) or any run that could not be re-checked (exit 3), writing
 * nothing.
 */
export async function publishCommand(results: string, flags: PublishFlags, io: CliIo): Promise<number> {
  const notes = createNotes(io.stderr);
  const outcome = await publish({
    results,
    ...requestOf(PUBLISH_OPTIONS, flags),
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
