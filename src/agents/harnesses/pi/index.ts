import { wireFormatOfProvider } from '../provider-model.js';
import type { Harness } from '../types.js';
import { piEfforts } from './efforts.js';
import { PI_BIN, setupPi } from './setup.js';

/** pi coding agent: speaks whatever models.json says; prints `0.73.1` on STDERR for `--version`. */
export const pi: Harness<'pi'> = {
  name: 'pi',
  npmPackage: '@mariozechner/pi-coding-agent',
  version: '0.73.1',
  example: 'anthropic/claude-sonnet-4-5@high',
  bin: PI_BIN,
  efforts: piEfforts,
  effortsSource: "bakeoff's table of pi's --thinking levels (the same six for every model; pi maps them per model itself)",
  webTools: { names: [], switch: 'none needed: pi 0.73.1 has no web tool (its tools are read, bash, edit, write; grep, find and ls off by default)' },
  wireFormat: wireFormatOfProvider,
  setup: setupPi,
  stream: async () => ({ parse: (await import('./parse-stream.js')).parsePiStream, transcript: (await import('./read-transcript.js')).readPiTranscript }),
};
