// One self-contained HTML page: the stylesheet, the script and the data inline, and a content
// security policy that forbids the browser any request but (in the viewer) asking its own server
// for fresh data. Nothing is fetched from anywhere else: no font, no script, no image.
import type { ReportData } from '../host/index.js'
import { pageData } from './case-columns.js'
import { PAGE_SCRIPT } from './page-script.js'
import { PAGE_STYLE } from './page-style.js'
import { REVIEW_SCRIPT } from './review-script.js'

export interface PageOptions {
  /** In the viewer: the path the page polls for fresh data (same origin). Absent: a static report. */
  live?: string
  /** In the viewer's review mode: where labels are posted, the session's token, who labels (ADR 0340). */
  review?: { path: string; token: string; reviewer: string }
}

/** JSON safe inside a <script> element: no `<` can close it, and the two JS-only line breaks are escaped. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

const escapeHtml = (text: string): string => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c)

export function renderPage(data: ReportData, options: PageOptions = {}): string {
  const connect = options.live === undefined ? "'none'" : "'self'"
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; connect-src ${connect}; base-uri 'none'; form-action 'none'`
  const title = `digline report: ${data.suites.map((s) => s.suite).join(', ') || data.tenant}`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main id="app"><noscript>This report draws itself with JavaScript; enable it to read the report.</noscript></main>
<script id="digline-config" type="application/json">${scriptJson({ live: options.live ?? null, review: options.review ?? null })}</script>
<script id="digline-data" type="application/json">${scriptJson(pageData(data))}</script>
${options.review === undefined ? '' : `<script>${REVIEW_SCRIPT}</script>\n`}<script>${PAGE_SCRIPT}</script>
</body>
</html>
`
}
