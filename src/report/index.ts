// The report front end as the bin reaches it: the page and the viewer (ADR 0055).
export { renderPage, type PageOptions } from './render-page.js'
export { startViewServer, VIEW_HOST, DATA_PATH, type ViewServer, type ViewOptions } from './view-server.js'
