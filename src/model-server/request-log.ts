import { appendFile } from 'node:fs/promises';
import type { ModelServerOptions } from './types.js';

/** Appends every request a scripted model server answers to a JSONL file, in order. */
export interface RequestLog {
  readonly onRequestServed: NonNullable<ModelServerOptions['onRequestServed']>;
  /** Resolves once every line so far is written. */
  flushed(): Promise<void>;
}

/**
 * A log of what the scripted model server received: one JSON line per request (what it
 * answered, the request's headers and parsed body), appended in request order. Used by
 * `bakeoff model-server --log` and, for a bake on `--upstream scripted:…`, by
 * `BAKEOFF_SCRIPTED_LOG` (what reached the model past the metering proxy).
 */
export function requestLog(file: string): RequestLog {
  let written = Promise.resolve();
  return {
    onRequestServed: (served, detail) => {
      written = written.then(() => appendFile(file, JSON.stringify({ ...served, ...detail }) + '\n'));
    },
    flushed: () => written,
  };
}
