/**
 * Every `<table>` of a page body in its own horizontally scrollable, keyboard-reachable region
 * (`<div class="scroll" tabindex="0" role="region" aria-label=…>`), so a wide table scrolls
 * inside the page instead of widening it. The region is named by the table's `aria-label`, else
 * its `<caption>`, else the heading (h2/h3) the table follows, else `fallback` (the page title);
 * a table with neither label nor caption gets that name as its `aria-label`. Header cells of a
 * `<thead>` without a scope get `scope="col"`. A table a renderer already put in a `.scroll`
 * region is left as it is.
 *
 * Matching markup with patterns is sound here because every text of the site is escaped
 * (escape-html.ts): `<table`, `<th` and `<h2` occur only as the renderers' own tags, and tables
 * are never nested. Pure.
 */
export function wrapTables(body: string, fallback: string): string {
  let heading = fallback;
  const pattern = /<h([23])\b[^>]*>([\s\S]*?)<\/h\1>|(<div class="scroll"[^>]*>\s*)?<table\b([^>]*)>([\s\S]*?)<\/table>/g;
  return body.replace(pattern, (whole, _level, headingHtml: string | undefined, region: string | undefined, attrs: string, inner: string) => {
    if (headingHtml !== undefined) {
      heading = textOf(headingHtml) || heading;
      return whole;
    }
    if (region !== undefined) return whole; // the renderer made its region itself
    const own = /\saria-label="([^"]*)"/.exec(attrs)?.[1];
    const caption = /<caption\b[^>]*>([\s\S]*?)<\/caption>/.exec(inner)?.[1];
    const label = own ?? (caption === undefined ? heading : escapeText(textOf(caption)));
    const named = own === undefined && caption === undefined ? `${attrs} aria-label="${label}"` : attrs;
    const scoped = inner.replace(/<thead\b[^>]*>[\s\S]*?<\/thead>/, (head) => head.replace(/<th(?![^>]*\sscope=)(?=[\s>])/g, '<th scope="col"'));
    return `<div class="scroll" tabindex="0" role="region" aria-label="${label}"><table${named}>${scoped}</table></div>`;
  });
}

/** The text of escaped HTML with its tags left out, still escaped (so it can go in an attribute). */
function textOf(html: string): string {
  return escapeText(html.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim());
}

/** Escaped text stays escaped; only a stray `"` (none in the renderers' output) is turned into `&quot;`. */
function escapeText(text: string): string {
  return text.replace(/"/g, '&quot;');
}
