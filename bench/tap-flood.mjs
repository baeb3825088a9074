// Reading a TAP report (a test command's stdout) that the code under test flooded: a short tape
// stream, then up to controls.outputMb (64 MiB by default) of lines that are not TAP — the
// battery's output-flood-at-exit on tape. Baseline: tap-parser on the whole text, as bakeoff read
// it before it left out the lines tap-parser only hands to its `line`/`extra` events.
// Usage: npm run build && node bench/tap-flood.mjs [MiB]
import { Parser } from 'tap-parser';
import { parseTapOutput } from '../dist/runners/parse-tap-output.js';

const mib = Number(process.argv[2] ?? 64);
const stream = 'TAP version 13\n# limits a value below the range\nnot ok 1 should be equal\n  ---\n    operator: equal\n  ...\n# keeps the bounds\nok 2 should be equal\n1..2\n';
const text = stream + 'battery output flood\n'.repeat(Math.floor((mib * 1048576) / 21));
const time = (fn) => { const t = performance.now(); fn(); return performance.now() - t; };
const baseline = time(() => new Parser().end(text));
const now = time(() => parseTapOutput(text, { isFile: () => false }));
console.log(`TAP stream + ${mib} MiB of flood: tap-parser on all of it ${(baseline / 1000).toFixed(1)} s, parseTapOutput ${(now / 1000).toFixed(1)} s (${(baseline / now).toFixed(0)}× faster)`);
