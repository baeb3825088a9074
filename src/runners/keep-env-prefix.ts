/**
 * A task's test command may set a variable bakeoff's reporter is loaded through (`PYTHONPATH=src
 * python -m pytest`, `NODE_OPTIONS=--no-warnings node --test`): such an assignment would replace
 * the value bakeoff put in the environment, and the reporter would not load. This rewrites every
 * shell assignment of `name` in the command (a bare `NAME=…` word, also after `export` or `env`)
 * so that its value starts with `prefix`, a shell fragment such as `"$BAKEOFF_PYTHONPATH":`.
 * An assignment whose value already reads the variable itself (`PYTHONPATH=src:$PYTHONPATH`)
 * keeps what the environment has, bakeoff's part included, and is left as it is. Words inside
 * quotes are not assignments and are not touched.
 */
export function keepEnvPrefix(command: string, name: string, prefix: string): string {
  const reads = new RegExp(`\\$\\{?${name}\\b`);
  let out = '';
  let i = 0;
  let wordStart = true;
  while (i < command.length) {
    const ch = command[i]!;
    if (wordStart && command.startsWith(`${name}=`, i)) {
      const valueStart = i + name.length + 1;
      const valueEnd = endOfWord(command, valueStart);
      const value = command.slice(valueStart, valueEnd);
      out += `${name}=${reads.test(value) ? '' : prefix}${value}`;
      i = valueEnd;
      wordStart = false;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '\\') {
      const end = ch === '\\' ? i + 2 : endOfQuote(command, i);
      out += command.slice(i, end);
      i = end;
      wordStart = false;
      continue;
    }
    out += ch;
    i++;
    wordStart = /[\s;&|(){}`]/.test(ch);
  }
  return out;
}

/** Where the shell word starting at `start` ends: at unquoted whitespace or an operator. */
function endOfWord(text: string, start: number): number {
  let i = start;
  while (i < text.length && !/[\s;&|()<>]/.test(text[i]!)) {
    const ch = text[i]!;
    i = ch === "'" || ch === '"' ? endOfQuote(text, i) : ch === '\\' ? i + 2 : i + 1;
  }
  return Math.min(i, text.length);
}

/** The index just past the quote that closes the one at `start` (the end of the text if none). */
function endOfQuote(text: string, start: number): number {
  const quote = text[start]!;
  let i = start + 1;
  while (i < text.length && text[i] !== quote) i += quote === '"' && text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}
