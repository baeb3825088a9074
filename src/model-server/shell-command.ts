/**
 * Shell commands the gold script sends through a harness's shell tool when it has no file
 * tool for the job: writing a file byte for byte with a quoted heredoc, and removing one.
 */
import { quoteShellArg } from '../util/index.js';

/**
 * Writes `content` to `path` exactly. A quoted heredoc expands nothing; its delimiter is
 * chosen so that no line of the content equals it. A heredoc always ends with a newline, so
 * content without a final newline is written with one and cut by a byte afterwards.
 */
export function writeFileCommand(path: string, content: string): string {
  const file = quoteShellArg(path);
  const dir = path.includes('/') ? `mkdir -p ${quoteShellArg(path.slice(0, path.lastIndexOf('/')) || '/')} && ` : '';
  if (content === '') return `${dir}: > ${file}`;
  const lines = new Set(content.split(/\r?\n/));
  let delimiter = 'BAKEOFF_EOF';
  for (let i = 1; lines.has(delimiter); i++) delimiter = `BAKEOFF_EOF_${i}`;
  const cut = content.endsWith('\n') ? '' : ` && truncate -s -1 ${file}`;
  return `${dir}cat > ${file} <<'${delimiter}'${cut}\n${content}${content.endsWith('\n') ? '' : '\n'}${delimiter}`;
}

/**
 * Removes the file at `path` (absolute, so it cannot read as an option). Plain `rm`: Codex's
 * default exec policy rejects `rm -f` ("rm -f style commands are not permitted"), even with
 * approvals bypassed.
 */
export function removeFileCommand(path: string): string {
  return `rm ${quoteShellArg(path)}`;
}
