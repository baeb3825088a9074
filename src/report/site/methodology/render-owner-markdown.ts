import MarkdownIt from 'markdown-it';

/**
 * The suite owner's methodology.md as HTML: CommonMark with tables, no raw HTML (it is
 * escaped), no images (a page must load nothing), and links kept only when they stay on the
 * page or the site (a relative path or `#anchor`); any other link is shown as its text. Pure.
 */
export function renderOwnerMarkdown(markdown: string): string {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  md.disable(['image']);
  md.validateLink = (url: string): boolean => !/^[a-z][a-z0-9+.-]*:/i.test(url.trim()) && !url.trim().startsWith('//');
  // headings of the owner's text sit under the page's own h2
  md.renderer.rules['heading_open'] = (tokens, idx) => {
    const level = Math.min(6, Number(tokens[idx]!.tag.slice(1)) + 2);
    return `<h${level}>`;
  };
  md.renderer.rules['heading_close'] = (tokens, idx) => `</h${Math.min(6, Number(tokens[idx]!.tag.slice(1)) + 2)}>\n`;
  return md.render(markdown);
}
