import { wireFormatOfProvider } from '../provider-model.js';
import type { Harness } from '../types.js';
import { OPENCODE_WEB_TOOLS } from './opencode-json.js';
import { OPENCODE_BIN, setupOpencode } from './setup.js';
import { opencodeVariants } from './variants.js';

/** OpenCode: speaks the wire format of the AI SDK package its config names; prints `1.18.33` for `--version`. */
export const opencode: Harness<'opencode'> = {
  name: 'opencode',
  npmPackage: 'opencode-ai',
  version: '1.18.33',
  example: 'openai/gpt-5@high',
  bin: OPENCODE_BIN,
  efforts: opencodeVariants,
  effortsSource: "bakeoff's table of OpenCode 1.18.33's variants per provider (from its source; the CLI lists none offline)",
  webTools: { names: OPENCODE_WEB_TOOLS, switch: `permission ${JSON.stringify(Object.fromEntries(OPENCODE_WEB_TOOLS.map((t) => [t, 'deny'])))} in opencode.json` },
  wireFormat: wireFormatOfProvider,
  setup: setupOpencode,
  stream: async () => ({ parse: (await import('./parse-stream.js')).parseOpencodeStream, transcript: (await import('./read-transcript.js')).readOpencodeTranscript }),
};
