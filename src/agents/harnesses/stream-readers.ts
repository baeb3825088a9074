import { HARNESS_NAMES, HARNESSES, isHarnessName, type HarnessName } from './index.js';
import type { TranscriptEntry } from './transcript.js';
import type { StreamReader } from './types.js';

/**
 * Every registered harness's stream reader, loaded (with their zod schemas) when this module
 * is: the commands that read recorded streams import it, the ones that only list harnesses
 * (`bakeoff agents`) do not (issue 36: start-up near bare node).
 */
export const STREAM_READERS = Object.fromEntries(await Promise.all(HARNESS_NAMES.map(async (name) => [name, await HARNESSES[name].stream()] as const))) as {
  readonly [N in HarnessName]: StreamReader;
};

/**
 * A session's recorded stream (the order folder's `stream` file, store/run-folder.ts) as a transcript, read by the harness
 * that wrote it; null when `harness` (an `AgentInfo.harness`) is none of the registered ones,
 * e.g. `builtin` (gold, noop, patch:, command:), whose sessions have no stream. Never throws.
 */
export function transcriptOf(harness: string, stream: string): TranscriptEntry[] | null {
  return isHarnessName(harness) ? STREAM_READERS[harness].transcript(stream) : null;
}
