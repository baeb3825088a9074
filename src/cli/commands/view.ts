import { view } from '../../api/index.js';
import { createNotes, printNote } from '../notes.js';
import { VIEW_OPTIONS, type ViewFlags } from '../command-options.js';
import { EXIT, placeOf, type CliIo } from '../io.js';
import { requestOf } from '../option-table.js';


/**
 * `bakeoff view <results>`: the library's `view()`; prints the URL on stdout and serves until
 * SIGINT or SIGTERM, then closes.
 */
export async function viewCommand(results: string, flags: ViewFlags, io: CliIo): Promise<number> {
  const notes = createNotes(io.stderr);
  const viewer = await view({ results, ...requestOf(VIEW_OPTIONS, flags), ...placeOf(io), onEvent: (event) => printNote(notes, event) });
  io.stdout.write(`${viewer.url}\n`);
  io.stderr.write('bakeoff: serving the results read-only until Ctrl-C\n');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await viewer.close();
  return EXIT.ok;
}
