/**
 * What every entry point tells its caller besides its result: a note (a task skipped, a stale
 * lock taken over, a sandbox warning) or an error that did not stop the command (a run void
 * because the instrument broke). The CLI prints both to stderr; a library caller decides.
 */
export type NoteEvent = { readonly type: 'note'; readonly message: string } | { readonly type: 'error'; readonly message: string };

/** The `note`/`error` pair the lower layers take, sending each as an event. */
export interface Notify {
  note(message: string): void;
  error(message: string): void;
}

export function notifyVia(onEvent: ((event: NoteEvent) => void) | undefined): Notify {
  const emit = onEvent ?? (() => {});
  return { note: (message) => emit({ type: 'note', message }), error: (message) => emit({ type: 'error', message }) };
}
