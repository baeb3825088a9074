import { execa } from 'execa';
import { BIN, ROOT } from './helpers.js';

// The built CLI under a real pseudo-terminal: util-linux `script` runs it on a pty whose size
// `stty` sets first, so stdout is a terminal `columns` wide, as in a user's window.
const quote = (arg: string): string => `'${arg.replaceAll("'", "'\\''")}'`;

export async function onScreen(columns: number, args: readonly string[], env: Record<string, string> = {}) {
  const command = `stty cols ${columns} rows 50 && exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const result = await execa('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { NO_COLOR: '', COLUMNS: '', ...env },
    stdin: 'ignore',
    reject: false,
  });
  return { exitCode: result.exitCode, text: String(result.stdout).replaceAll('\r\n', '\n') };
}

/** What a terminal shows: escape sequences take no room, and a carriage return starts the line over. */
export function shownLines(text: string): string[] {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').split(/\r|\n/);
}

export function longest(text: string): number {
  return Math.max(...shownLines(text).map((line) => line.length));
}
