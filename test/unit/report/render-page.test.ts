// The page's shell: the data cannot close its script element, and the policy forbids every request
// of a static report.
import { describe, expect, test } from 'vitest'
import type { ReportData } from '../../../src/host/report-data/report-data.js'
import { renderPage, scriptJson } from '../../../src/report/render-page.js'

const empty: ReportData = { tenant: 'acme</title><script>alert(1)</script>', generated_at: '2026-12-01T00:00:00.000Z', digline_version: '0.1.0', suites: [], skipped: [], live: [] }

describe('renderPage', () => {
  test('embedded data never holds `<`, so a case id cannot end the script element', () => {
    expect(scriptJson({ id: '</script><img src=x onerror=alert(1)>', ls: '\u2028' })).toBe('{"id":"\\u003c/script>\\u003cimg src=x onerror=alert(1)>","ls":"\\u2028"}')
    const html = renderPage(empty)
    expect(html.match(/<script/g)).toHaveLength(3)
    expect(html).not.toContain('<script>alert(1)')
  })

  test('a static report may connect nowhere; the viewer only to its own server', () => {
    expect(renderPage(empty)).toContain("connect-src 'none'")
    expect(renderPage(empty)).toContain("default-src 'none'")
    expect(renderPage(empty, { live: '/data.json' })).toContain("connect-src 'self'")
    expect(renderPage(empty, { live: '/data.json' })).toContain('"live":"/data.json"')
  })
})
