import { execa } from 'execa';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeFileCommand, writeFileCommand } from './shell-command.js';

const dir = await mkdtemp(path.join(tmpdir(), 'bakeoff-shell-command-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('writeFileCommand run by bash', () => {
  it.each([
    ['plain lines', 'one\ntwo\n'],
    ['no final newline', 'one\ntwo'],
    ['empty', ''],
    ['CRLF and a lone CR', 'a\r\nb\rc\r\n'],
    ['shell syntax that must not expand', "$HOME `id` $(echo x) 'single' \"double\" \\ \\n !\n"],
    ['a line equal to the heredoc delimiter', 'BAKEOFF_EOF\nBAKEOFF_EOF_1\nend'],
    ['only a newline', '\n'],
    ['trailing spaces', 'x  \ny\t\n'],
  ])('writes %s byte for byte', async (_name, content) => {
    const file = path.join(dir, "sub dir/it's", `${_name}.txt`);
    const result = await execa('bash', ['-lc', writeFileCommand(file, content)], { reject: false });
    expect(result.stderr).toBe('');
    expect(await readFile(file, 'utf8')).toBe(content);
  });

  it('removes a file without the -f that Codex refuses', async () => {
    const file = path.join(dir, 'gone $x.txt');
    await writeFile(file, 'x');
    // The option must not appear as a word; the temporary path itself may contain "-f".
    expect(removeFileCommand(file).split(' ')).not.toContain('-f');
    expect(removeFileCommand(file)).toMatch(/^rm '/);
    await execa('bash', ['-c', removeFileCommand(file)]);
    expect(existsSync(file)).toBe(false);
  });
});
