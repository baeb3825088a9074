import type { NoteEvent } from '../api/events.js';
import { escapeControl } from '../util/index.js';

/**
 * What a command tells the operator besides its result: notes (a task skipped, a stale lock
 * taken over) and errors (a task's setup failed, a run is void because the instrument broke).
 * Each is printed to stderr at once, in every mode — terminal or not, `--json` or not — as one
 * plain line (`bakeoff: …`, `bakeoff: error: …`) with control characters escaped, and kept for
 * the command's JSON output (`notes[]`, `errors[]`, unescaped: JSON escapes what it must).
 */
export interface Notes {
  note(message: string): void;
  error(message: string): void;
  readonly notes: readonly string[];
  readonly errors: readonly string[];
}

export interface NotesOptions {
  /** Runs around each write (e.g. clearing and redrawing a live progress line). */
  readonly around?: (write: () => void) => void;
}

export function createNotes(stream: NodeJS.WritableStream, options: NotesOptions = {}): Notes {
  const notes: string[] = [];
  const errors: string[] = [];
  const around = options.around ?? ((write) => write());
  const print = (line: string): void => around(() => stream.write(`bakeoff: ${escapeControl(line)}\n`));
  return {
    note(message) {
      notes.push(message);
      print(message);
    },
    error(message) {
      errors.push(message);
      print(`error: ${message}`);
    },
    notes,
    errors,
  };
}

/** Prints a library call's `note` and `error` events; false for any other event (the command's own). */
export function printNote(notes: Notes, event: { readonly type: string }): event is NoteEvent {
  if (event.type === 'note') notes.note((event as NoteEvent).message);
  else if (event.type === 'error') notes.error((event as NoteEvent).message);
  else return false;
  return true;
}
