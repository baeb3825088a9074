/*
 * tap-parser reads about 40 000 lines a second, whatever they hold: the 64 MiB of output a test
 * may print (controls.outputMb), three million lines of noise, took a minute and more of the
 * host's CPU per grading (and again in verify). Most of such output is lines tap-parser does
 * nothing with but pass to its `line` and `extra` events, which bakeoff does not listen to.
 */

/**
 * A whole line (after a `\n` or at the start; through its `\n`, an `\r` before it allowed, no
 * other line break of JavaScript inside) that starts with nothing any of tap-parser's line
 * patterns (`lineTypes`) can start with — ignoring case, so more lines are kept than need be:
 * not a space or tab (a subtest's or a YAML block's line), `ok`/`not ok`, `pragma`, `bail out!`,
 * `TAP version`, a digit (a plan), a comment, and not empty, `{` or `}`.
 */
const NOISE_LINE = /(?<![^\n])(?![ \t]|(?:not )?ok|pragma|bail out!|tap version|\d|\s*#|[{}]?\r?\n)[^\n\r\u2028\u2029]*\r?\n/gi;
/** A line that may turn strict mode on (`pragma +strict`), where a line that is not TAP is a TAP error. */
const PRAGMA = /(?<![^\n])pragma /i;

/**
 * The stream without the lines tap-parser would only hand to `nonTap()` — every event but
 * `line` and `extra` (which bakeoff does not read) and every result the same.
 *
 * Left out are whole lines as tap-parser splits them (`/^.*\r?\n/`; a line holding another
 * line break — a lone `\r`, U+2028, U+2029 — stops its reading there, and is kept) that no
 * pattern of tap-parser matches (NOISE_LINE): tap-parser hands such a line to `nonTap()` in
 * every state — within a YAML block, a subtest, after the plan, after a bail-out — which only
 * queues or emits it and changes nothing else, except in strict mode, where it is a TAP error:
 * from the first line that could be a pragma on, nothing is left out. The lines left are the
 * same lines as before, split the same way, so what bakeoff checks on the stream's lines
 * (one version line, no test point before it) holds for both alike.
 */
export function tapLinesParsed(text: string): string {
  const cut = text.search(PRAGMA);
  return cut === -1 ? text.replace(NOISE_LINE, '') : text.slice(0, cut).replace(NOISE_LINE, '') + text.slice(cut);
}
