// The report's stylesheet, inlined into the page: system fonts only, nothing fetched.
export const PAGE_STYLE = `
:root { color-scheme: light; --fg: #111827; --muted: #6b7280; --line: #e5e7eb; --pass: #15803d; --fail: #b91c1c; --error: #b45309 }
* { box-sizing: border-box }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: var(--fg); background: #f9fafb }
#app { max-width: 1100px; margin: 0 auto; padding: 16px 20px 60px }
header h1 { margin: 0; font-size: 22px }
.meta { color: var(--muted); margin: 2px 0 8px }
nav a { display: inline-block; margin: 0 10px 4px 0; color: #1d4ed8; text-decoration: none }
article.suite { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 16px 20px; margin: 18px 0 }
article.suite h2 { margin: 0 0 8px; font-size: 19px }
.status { font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 10px; margin-left: 6px; vertical-align: middle; background: #e5e7eb }
.status.held { background: #dcfce7; color: var(--pass) } .status.regressed, .status.missed { background: #fee2e2; color: var(--fail) }
.status.errored, .status.baseline-unreadable, .status.uncalibrated, .status.pending { background: #fef3c7; color: var(--error) } .status.running { background: #dbeafe; color: #1d4ed8 }
.headline { display: flex; flex-wrap: wrap; align-items: center; gap: 18px; margin: 4px 0 10px }
.rate { font-size: 34px; font-weight: 700; line-height: 1 } .ci, .mini { color: var(--muted) }
.card { border-top: 1px solid var(--line); padding-top: 6px; margin-top: 10px } .card h3 { font-size: 15px; margin: 6px 0 }
.bad { color: var(--fail) } .warn { color: var(--error) } .good { color: var(--pass) } .note { color: var(--muted); font-style: italic }
.diff { display: flex; align-items: center; gap: 12px; margin: 4px 0 } .diff svg { flex: none } .diff p { margin: 0; flex: 1; min-width: 240px }
table { border-collapse: collapse } th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--line); vertical-align: top }
table.facts th { color: var(--muted); font-weight: 500; white-space: nowrap }
table.cases { width: 100%; margin-top: 8px }
.case-scroll { max-height: 70vh; overflow: auto; overflow-anchor: none; margin-top: 8px; border-bottom: 1px solid var(--line) } .case-scroll table.cases { margin-top: 0 }
.case-scroll thead th { position: sticky; top: 0; background: #fff; z-index: 1 } tr.spacer td { padding: 0; border: 0 } table.cases td.id { font-family: ui-monospace, monospace }
tr.flipped { background: #fff7ed }
.v { font-weight: 600 } .v.pass { color: var(--pass) } .v.fail { color: var(--fail) } .v.error { color: var(--error) } .v.none { color: var(--muted) }
.flip { font-size: 12px; color: var(--error) }
.matrix td.cell { text-align: center; min-width: 48px; font-weight: 600 } .matrix td.zero { color: #d1d5db; font-weight: 400 } .matrix td.flipcell { background: #fff7ed }
.controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 6px 0 } .controls input { padding: 4px 8px; min-width: 200px } .count { color: var(--muted) }
.error-message { color: var(--error) } .tok { color: var(--muted); white-space: nowrap; font-size: 12px }
code { font-family: ui-monospace, monospace; font-size: 12px; white-space: pre-wrap; word-break: break-word }
details summary { cursor: pointer; color: #1d4ed8 } ul.errored { margin: 4px 0; padding-left: 20px }
progress { width: 320px }
.trajectory { margin: 6px 0 } .trajectory .tally { color: var(--muted) }
ol.timeline { margin: 2px 0; padding-left: 22px } ol.timeline li { margin: 1px 0 }
.step .kind { display: inline-block; min-width: 8ch; color: var(--muted); font-size: 12px; margin-right: 6px } .step .name { display: inline-block; min-width: 16ch; font-family: ui-monospace, monospace; margin-right: 8px }
.step svg.span-bar { vertical-align: middle; margin-right: 6px } .step .dur { font-size: 12px; margin-right: 8px } .step .failed { color: var(--fail); font-weight: 600 }
.conversation { margin: 6px 0 } .conversation .tally { color: var(--muted) } ol.turns { margin: 2px 0; padding-left: 22px } ol.turns > li { margin: 3px 0 }
.turn .role { display: inline-block; min-width: 10ch; font-weight: 600; margin-right: 8px } .turn.user .role { color: var(--muted) } .turn svg.span-bar { vertical-align: middle; margin-right: 6px }
.turn .dur { font-size: 12px; margin-right: 8px; white-space: nowrap } .turn .calls { color: var(--muted); font-size: 12px; margin-left: 8px; white-space: nowrap } .turn .said { margin: 2px 0 2px 4px }
`
