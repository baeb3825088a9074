import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDiff } from './parse-diff.js';
import { renderDiff } from './render-diff.js';

const MIXED = readFileSync(fileURLToPath(new URL('../../../test/fixtures/diffs/mixed.patch', import.meta.url)), 'utf8');
const whole = 'order-1/change.patch in the run folder';

/** A real-looking patch of one new file with `n` lines. */
function bigPatch(n: number, path = 'big.txt'): string {
  const lines = Array.from({ length: n }, (_, i) => `+line ${i + 1}`);
  return `diff --git a/${path} b/${path}\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${n} @@\n${lines.join('\n')}\n`;
}

describe('parseDiff on a patch git wrote', () => {
  it('reads each file\'s paths, status, binary flag, mode change and counts', () => {
    expect(parseDiff(MIXED).map(({ hunks, ...f }) => ({ ...f, hunks: hunks.length }))).toEqual([
      { oldPath: 'gone.txt', newPath: null, status: 'deleted', binary: false, modeChange: null, hunks: 1, added: 0, removed: 1 },
      { oldPath: 'keep.txt', newPath: 'keep.txt', status: 'modified', binary: false, modeChange: null, hunks: 1, added: 2, removed: 2 },
      { oldPath: null, newPath: 'logo.png', status: 'added', binary: true, modeChange: null, hunks: 0, added: 0, removed: 0 },
      { oldPath: 'old-name.txt', newPath: 'new-name.txt', status: 'renamed', binary: false, modeChange: null, hunks: 1, added: 1, removed: 1 },
      { oldPath: 'run.sh', newPath: 'run.sh', status: 'modified', binary: false, modeChange: '100644 → 100755', hunks: 0, added: 0, removed: 0 },
      { oldPath: null, newPath: 'tést file.txt', status: 'added', binary: false, modeChange: null, hunks: 1, added: 1, removed: 0 },
    ]);
  });

  it('numbers the lines of the old and the new file from the hunk header', () => {
    const renamed = parseDiff(MIXED)[3]!;
    expect(renamed.hunks[0]!.lines.map((l) => [l.kind, l.oldNo, l.newNo, l.text])).toEqual([
      ['ctx', 3, 3, 'c'], ['ctx', 4, 4, 'd'], ['ctx', 5, 5, 'e'], ['del', 6, null, 'f'], ['add', null, 6, 'F'],
    ]);
    const keep = parseDiff(MIXED)[1]!;
    expect(keep.hunks[0]!.lines.at(-1)).toEqual({ kind: 'note', text: 'No newline at end of file', oldNo: null, newNo: null });
  });
});

describe('renderDiff', () => {
  it('draws a header per file with its path, what happened to it and its counts', () => {
    const { html } = renderDiff(MIXED, { maxLines: 2000, whole });
    expect(html).toContain('<p class="diff-summary">6 files changed, 4 lines added, 4 lines removed.</p>');
    expect(html).toContain('<code class="diff-path">gone.txt</code> <span class="diff-tag">deleted</span> <span class="diff-stat"><span class="diff-count-add">+0</span> <span class="diff-count-del">−1</span></span>');
    expect(html).toContain('<code class="diff-path">old-name.txt → new-name.txt</code> <span class="diff-tag">renamed</span>');
    expect(html).toContain('<code class="diff-path">logo.png</code> <span class="diff-tag">new</span> <span class="diff-tag">binary</span>');
    expect(html).toContain('Binary file: its content is not drawn.');
    expect(html).toContain('<code class="diff-path">run.sh</code> <span class="diff-tag">mode 100644 → 100755</span>');
    expect(html).toContain('<code class="diff-path">tést file.txt</code> <span class="diff-tag">new</span>');
    expect(html).not.toContain('McmZQz4DfRY00G'); // the binary data
  });

  it('draws added and removed lines with classes, line numbers and a +/- marker column, escaped', () => {
    const { html, lines } = renderDiff(MIXED, { maxLines: 2000, whole });
    expect(html).toContain('<tr class="diff-del"><td class="diff-ln">2</td><td class="diff-ln"></td><td class="diff-mark">-</td><td class="diff-code">two</td></tr>');
    expect(html).toContain('<tr class="diff-add"><td class="diff-ln"></td><td class="diff-ln">2</td><td class="diff-mark">+</td><td class="diff-code">2 &lt;b&gt;&amp;amp;&lt;/b&gt;</td></tr>');
    expect(html).toContain('<tr class="diff-ctx"><td class="diff-ln">1</td><td class="diff-ln">1</td><td class="diff-mark"> </td><td class="diff-code">one</td></tr>');
    expect(html).toContain('<tr class="diff-hunk"><td colspan="4">@@ -3,4 +3,4 @@ b</td></tr>');
    expect(html).not.toMatch(/<b>/);
    expect(html).not.toContain('diff-cut');
    expect(lines).toBe(2 + 7 + 6 + 2); // each text hunk: its header and its lines
  });

  it('cuts a large diff after maxLines, saying how much was cut and where the whole change is, and lists the files not reached', () => {
    const patch = bigPatch(2500) + bigPatch(3, 'other <file>.txt');
    const { html, lines } = renderDiff(patch, { maxLines: 2000, whole });
    expect(lines).toBe(2000);
    expect(html.match(/<tr class="diff-add">/g)).toHaveLength(1999);
    expect(html).toContain('line 1999</td>');
    expect(html).not.toContain('line 2000</td>');
    expect(html).toContain('… cut here');
    expect(html).toContain(`<strong>Diff cut:</strong> 2000 of 2505 diff lines drawn, 505 not shown. The whole change is ${whole}.`);
    expect(html).toContain('<li><code>other &lt;file&gt;.txt</code>');
  });

  it('says so when nothing changed, and shows a text that is no git diff as text, escaped and cut', () => {
    expect(renderDiff('', { maxLines: 10, whole }).html).toBe('<p class="diff-empty">No change.</p>');
    const raw = renderDiff('<script>x</script>\nline 2\nline 3\n', { maxLines: 2, whole });
    expect(raw.html).toBe(`<div class="diff"><p class="diff-note">Not a git diff: shown as text.</p><pre>&lt;script&gt;x&lt;/script&gt;\nline 2</pre><div class="diff-cut"><p><strong>Diff cut:</strong> 2 of 3 lines drawn. The whole change is ${whole}.</p></div></div>`);
    expect(raw.lines).toBe(2);
  });

  it('cuts an overlong line on the page', () => {
    const { html } = renderDiff(bigPatch(1).replace('+line 1', `+${'x'.repeat(1500)}`), { maxLines: 10, whole });
    expect(html).toContain(`${'x'.repeat(1000)} … (500 more characters)</td>`);
  });
});
