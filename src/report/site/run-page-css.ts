/**
 * The private run page's own styles (diff, transcript, test results), in a `<style>` of its
 * body so the site's page CSS (render-page.ts) stays as it is. Colour only adds to what the
 * markup says: every diff line has its `+`/`-` marker, every transcript entry its label.
 */
export const RUN_PAGE_CSS = `
.diff-file{border:1px solid #d0d7de;margin:8px 0}
.diff-file-head{background:#f6f8fa;border-bottom:1px solid #d0d7de;padding:4px 8px}
.diff-tag{border:1px solid #8c959f;border-radius:8px;font-size:11px;padding:0 6px}
.diff-count-add{color:#1a7f37}.diff-count-del{color:#cf222e}
table.diff-lines{border-collapse:collapse;margin:0;width:100%;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
table.diff-lines td{border:0;padding:0 6px;vertical-align:top}
td.diff-ln{color:#57606a;text-align:right;user-select:none;width:1%;white-space:nowrap}
td.diff-mark{user-select:none;width:1%}
td.diff-code{white-space:pre-wrap;word-break:break-all}
tr.diff-add{background:#e6ffec}tr.diff-del{background:#ffebe9}
tr.diff-hunk td,tr.diff-cut-row td{background:#ddf4ff;color:#57606a}
tr.diff-note td{color:#57606a;font-style:italic}
.diff-cut{background:#fff8c5;border:1px solid #d4a72c;padding:4px 8px;margin:8px 0}
.diff-note,.diff-empty{color:#57606a;margin:4px 8px}
ol.transcript{list-style:none;padding:0;margin:8px 0}
ol.transcript>li{border-left:4px solid #d0d7de;margin:6px 0;padding:2px 8px}
.tr-label{font-size:11px;font-weight:600;text-transform:uppercase;color:#57606a}
.tr-text{white-space:pre-wrap}
li.tr-call{border-left-color:#0969da}
li.tr-result{border-left-color:#8c959f}
li.tr-result.tr-failed{border-left-color:#cf222e}
li.tr-final{border-left-color:#1a7f37}
li.tr-error{border-left-color:#cf222e;background:#ffebe9}
.tr-cut,.checks-cut{color:#57606a;font-size:12px}
table.checks td.status-fail,table.checks td.status-error,table.checks td.status-missing{color:#cf222e;font-weight:600}
table.checks td.status-pass{color:#1a7f37}
`;
