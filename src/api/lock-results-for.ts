import { describeHolder, lockResults, type ResultsLock } from '../store/index.js';
import type { Notify } from './events.js';

/**
 * Takes a results folder's lock for a command (refused at once with the holder named, or —
 * with `wait` — once the holder is gone), noting a wait and a stale lock taken over.
 */
export function lockResultsFor(
  dir: string,
  options: { readonly command: string; readonly create: boolean; readonly wait: boolean; readonly notes: Pick<Notify, 'note'> },
): Promise<ResultsLock> {
  const { notes } = options;
  return lockResults(dir, {
    command: options.command,
    create: options.create,
    wait: options.wait,
    onWait: (holder) => notes.note(`${dir} is in use by ${holder ? describeHolder(holder) : 'another process'}; waiting for it to finish (Ctrl-C stops waiting)`),
  }).then((lock) => {
    if (lock.tookOverFrom) notes.note(`took over the lock of ${dir} from ${describeHolder(lock.tookOverFrom)}, which is no longer running`);
    return lock;
  });
}
