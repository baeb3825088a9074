/**
 * The private run page's own styles (diff, transcript, test results), in a `<style>` of its
 * body so the site's page CSS (render-page.ts) stays as it is. Every colour is one of the page
 * CSS's variables, so light, dark and print each get theirs (dark text on a light diff line in
 * a dark page fails contrast). Colour only adds to what the markup says: every diff line has
 * its `+`/`-` marker, every transcript entry its label.
 */
export const RUN_PAGE_CSS = `
.diff-file{border:1px solid var(--border);margin:8px 0}
.diff-file-head{background:var(--head);border-bottom:1px solid var(--border);padding:4px 8px}
.diff-tag{border:1px solid var(--muted);border-radius:8px;font-size:11px;padding:0 6px}
.diff-count-add{color:var(--solved)}.diff-count-del{color:var(--failed)}
table.diff-lines{border-collapse:collapse;margin:0;width:100%;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
table.diff-lines td{border:0;padding:0 6px;vertical-align:top}
table.diff-lines tr{background:var(--bg)}
td.diff-ln{color:var(--muted);text-align:right;user-select:none;width:1%;white-space:nowrap}
td.diff-mark{user-select:none;width:1%}
td.diff-code{white-space:pre-wrap;word-break:break-all}
table.diff-lines tr.diff-add{background:var(--add-bg)}table.diff-lines tr.diff-del{background:var(--del-bg)}
tr.diff-hunk td,tr.diff-cut-row td{background:var(--hunk-bg);color:var(--muted)}
tr.diff-note td{color:var(--muted);font-style:italic}
.diff-cut{background:var(--warn-bg);border:1px solid var(--warn-border);padding:4px 8px;margin:8px 0}
.diff-note,.diff-empty{color:var(--muted);margin:4px 8px}
ol.transcript{list-style:none;padding:0;margin:8px 0}
ol.transcript>li{border-left:4px solid var(--border);margin:6px 0;padding:2px 8px}
.tr-label{font-size:11px;font-weight:600;text-transform:uppercase;color:var(--muted)}
.tr-text{white-space:pre-wrap}
li.tr-call{border-left-color:var(--accent)}
li.tr-result{border-left-color:var(--muted)}
li.tr-result.tr-failed{border-left-color:var(--failed)}
li.tr-final{border-left-color:var(--solved)}
li.tr-error{border-left-color:var(--failed);background:var(--del-bg)}
.tr-cut,.checks-cut{color:var(--muted);font-size:12px}
table.checks td.status-fail,table.checks td.status-error,table.checks td.status-missing{color:var(--failed);font-weight:600}
table.checks td.status-pass{color:var(--solved)}
div.silent{border:1px solid var(--warn-border);background:var(--warn-bg);border-radius:4px;padding:4px 12px;margin:8px 0}
table.checks .check-message{display:block;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;color:var(--fg);white-space:pre-wrap;overflow-wrap:anywhere;margin-top:2px}
`;
