export { renderSite } from './render-site.js';
export type { PrivateOrderDetail, SiteInput } from './site-input.js';
export { escapeHtml, slugify } from './escape-html.js';
export { SITE_MARKER } from './render-page.js';
