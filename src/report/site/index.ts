export { renderComparePage, renderSite, sitePages } from './render-site.js';
export type { CostByClass, PrivateOrderDetail, SiteCheck, SiteInput, SiteRequest, SiteSession, SiteSuite, SiteTask } from './site-input.js';
export { escapeHtml, slugify } from './escape-html.js';
export { SITE_MARKER } from './render-page.js';
export { renderHtmlReport, type HtmlReportInput } from './render-html-report.js';
