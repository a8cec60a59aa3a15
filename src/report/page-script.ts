// The script inside every report page, as text: it reads the data embedded in the page, draws the
// suites with inline SVG, and keeps the filters working offline. In the viewer (`live`), it asks the
// same server for fresh data every second and redraws when it changed. Plain ES2020, no imports, no
// template literals (the text lives in one).
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict'
  var dataNode = document.getElementById('digline-data')
  var config = JSON.parse(document.getElementById('digline-config').textContent)
  var data
  var root = document.getElementById('app')
  var filters = {}
  var SVG = 'http://www.w3.org/2000/svg'

  function el(tag, attrs, children) {
    var node = document.createElement(tag)
    for (var k in attrs || {}) {
      if (k === 'text') node.textContent = attrs[k]
      else if (k === 'on') for (var ev in attrs.on) node.addEventListener(ev, attrs.on[ev])
      else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) node.setAttribute(k, attrs[k])
    }
    ;(children || []).forEach(function (c) { if (c !== null && c !== undefined) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c) })
    return node
  }
  function svg(tag, attrs, children) {
    var node = document.createElementNS(SVG, tag)
    for (var k in attrs || {}) {
      if (k === 'text') node.textContent = attrs[k]
      else node.setAttribute(k, attrs[k])
    }
    ;(children || []).forEach(function (c) { if (c) node.appendChild(c) })
    return node
  }
  function pct(x) { return x === null || x === undefined ? 'n/a' : (x * 100).toFixed(1) + '%' }
  // A signed figure; one that rounds to zero has no sign (never "\u22120.0").
  function signed(x, scale, digits) { var t = Math.abs(x * scale).toFixed(digits); return Number(t) === 0 ? t : (x > 0 ? '+' : '\u2212') + t }
  function pts(x) { return signed(x, 100, 1) }
  function num(x) { return x === null || x === undefined ? 'n/a' : String(x) }
  function tokens(u) { return u ? u.input_tokens + ' in / ' + u.output_tokens + ' out' : '' }
  function shown(value) { return typeof value === 'string' ? value : JSON.stringify(value, null, 1) }
  var STATUS = { held: 'holds', missed: 'missed a threshold', regressed: 'regressed', errored: 'not judged: a case errored', 'baseline-unreadable': 'not judged: the baseline cannot be read', uncalibrated: 'not judged: the judge is not calibrated' }

  // The run's pass rate on a 0..100% track, its 95% interval as a band.
  function intervalBar(rate, ci) {
    var w = 360, h = 34, x = function (v) { return 18 + v * (w - 36) }
    var g = svg('svg', { width: w, height: h, viewBox: '0 0 ' + w + ' ' + h, role: 'img', 'aria-label': 'pass rate ' + pct(rate) + (ci ? ', 95% interval ' + pct(ci.low) + ' to ' + pct(ci.high) : '') })
    g.appendChild(svg('rect', { x: 18, y: 10, width: w - 36, height: 8, rx: 4, fill: '#e5e7eb' }))
    if (ci) g.appendChild(svg('rect', { class: 'ci-band', x: x(ci.low), y: 8, width: Math.max(2, x(ci.high) - x(ci.low)), height: 12, rx: 3, fill: '#93c5fd' }))
    if (rate !== null) g.appendChild(svg('circle', { cx: x(rate), cy: 14, r: 5, fill: '#1d4ed8' }))
    ;[0, 0.5, 1].forEach(function (t) { g.appendChild(svg('text', { x: x(t), y: 32, 'text-anchor': 'middle', 'font-size': 9, fill: '#6b7280', text: t * 100 + '%' })) })
    return g
  }

  // Each paired difference of the comparison (pass rate, mean score, and any other the comparison
  // carries) as an interval against its tolerance.
  function differences(c) {
    var out = []
    for (var k in c) {
      var d = c[k]
      if (!/difference$/.test(k) || !d || typeof d.mean !== 'number') continue
      var field = k === 'difference' ? 'pass_rate' : k.replace(/_difference$/, '')
      if (field === 'score') field = 'mean_score'
      var tol = c.tolerances ? c.tolerances[field] : undefined
      out.push({ label: field.replace(/_/g, ' '), d: d, tolerance: typeof tol === 'number' ? tol : null, scale: field === 'pass_rate' ? 100 : 1 })
    }
    return out
  }
  function differenceChart(item) {
    var w = 360, h = 44, d = item.d, s = item.scale
    var lo = d.ci95 ? d.ci95.low : d.mean, hi = d.ci95 ? d.ci95.high : d.mean
    var r = Math.max(Math.abs(lo), Math.abs(hi), item.tolerance || 0, 0.01) * 1.25
    var x = function (v) { return w / 2 + (v / r) * (w / 2 - 14) }
    var g = svg('svg', { width: w, height: h, viewBox: '0 0 ' + w + ' ' + h, role: 'img', 'aria-label': item.label + ' difference' })
    g.appendChild(svg('line', { x1: 14, x2: w - 14, y1: 16, y2: 16, stroke: '#d1d5db' }))
    g.appendChild(svg('line', { x1: x(0), x2: x(0), y1: 4, y2: 28, stroke: '#6b7280' }))
    if (item.tolerance !== null) {
      g.appendChild(svg('line', { class: 'tolerance', x1: x(-item.tolerance), x2: x(-item.tolerance), y1: 2, y2: 30, stroke: '#dc2626', 'stroke-dasharray': '3 2' }))
      g.appendChild(svg('text', { x: x(-item.tolerance), y: 40, 'text-anchor': 'middle', 'font-size': 9, fill: '#dc2626', text: 'tolerance ' + signed(-item.tolerance, s, s === 100 ? 1 : 3) }))
    }
    var below = item.tolerance !== null && d.ci95 && d.ci95.high < -item.tolerance
    if (d.ci95) g.appendChild(svg('line', { x1: x(lo), x2: x(hi), y1: 16, y2: 16, stroke: below ? '#dc2626' : '#1d4ed8', 'stroke-width': 6, 'stroke-linecap': 'round' }))
    g.appendChild(svg('circle', { cx: x(d.mean), cy: 16, r: 5, fill: '#111827' }))
    g.appendChild(svg('text', { x: x(0) + 4, y: 9, 'text-anchor': 'start', 'font-size': 9, fill: '#6b7280', text: '0' }))
    return g
  }
  function differenceText(item) {
    var d = item.d, s = item.scale
    var f = function (v) { return s === 100 ? pts(v) + ' points' : signed(v, 1, 3) }
    return item.label + ': ' + f(d.mean) + (d.ci95 ? ', 95% interval [' + f(d.ci95.low) + ', ' + f(d.ci95.high) + ']' : ' (too few cases for an interval)') + ' over ' + d.n + ' shared cases' + (item.tolerance !== null ? '; tolerance ' + f(-item.tolerance) : '; no tolerance set')
  }

  // Recent runs' pass rates with their intervals; the baseline's run is ringed.
  function historyChart(points, refName) {
    var w = 640, h = 170, l = 40, r = 12, t = 10, b = 24
    var g = svg('svg', { class: 'history', width: w, height: h, viewBox: '0 0 ' + w + ' ' + h, role: 'img', 'aria-label': 'pass rate of the last ' + points.length + ' runs' })
    var y = function (v) { return t + (1 - v) * (h - t - b) }
    var x = function (i) { return points.length === 1 ? (l + w - r) / 2 : l + (i * (w - l - r)) / (points.length - 1) }
    ;[0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
      g.appendChild(svg('line', { x1: l, x2: w - r, y1: y(v), y2: y(v), stroke: '#f3f4f6' }))
      g.appendChild(svg('text', { x: l - 6, y: y(v) + 3, 'text-anchor': 'end', 'font-size': 9, fill: '#6b7280', text: v * 100 + '%' }))
    })
    var rated = points.map(function (p, i) { return { p: p, i: i } }).filter(function (o) { return o.p.pass_rate !== null })
    var band = rated.filter(function (o) { return o.p.ci95 })
    if (band.length > 1) {
      var up = band.map(function (o) { return x(o.i) + ',' + y(o.p.ci95.high) })
      var down = band.slice().reverse().map(function (o) { return x(o.i) + ',' + y(o.p.ci95.low) })
      g.appendChild(svg('polygon', { points: up.concat(down).join(' '), fill: '#dbeafe' }))
    }
    if (rated.length > 1) g.appendChild(svg('polyline', { points: rated.map(function (o) { return x(o.i) + ',' + y(o.p.pass_rate) }).join(' '), fill: 'none', stroke: '#1d4ed8', 'stroke-width': 2 }))
    rated.forEach(function (o) {
      var dot = svg('circle', { cx: x(o.i), cy: y(o.p.pass_rate), r: o.p.baseline ? 6 : 3.5, fill: o.p.baseline ? '#fff' : o.p.replay ? '#9ca3af' : '#1d4ed8', stroke: '#1d4ed8', 'stroke-width': o.p.baseline ? 2.5 : 0 })
      dot.appendChild(svg('title', { text: o.p.key + ': ' + pct(o.p.pass_rate) + (o.p.baseline ? ' (' + refName + ')' : '') + (o.p.replay ? ' (replay)' : '') }))
      g.appendChild(dot)
    })
    return g
  }

  function table(rows) {
    return el('table', { class: 'facts' }, rows.filter(Boolean).map(function (r) { return el('tr', {}, [el('th', { text: r[0] }), el('td', {}, [typeof r[1] === 'string' ? r[1] : r[1]])]) }))
  }
  function section(title, children, cls) { return el('section', { class: cls || 'card' }, [el('h3', { text: title })].concat(children)) }

  function identity(s, run, title) {
    var judges = Object.keys(run.observed.judge_models || {}).map(function (k) { return k + ': ' + run.observed.judge_models[k] }).join(', ')
    return section(title, [table([
      ['key', run.key], ['created at', run.created_at], ['config hash', run.config_hash], ['environment', run.environment],
      ['git commit', run.git_commit || 'not recorded'], ['target config', el('code', { text: JSON.stringify(run.target_config) })],
      ['observed model', run.observed.target_model || 'not reported'], judges ? ['judge models', judges] : null,
      ['scorers', run.judge_config.scorers.map(function (x) { return x.name }).join(', ')],
      ['answers recorded', run.record_responses ? 'yes' : 'no'], run.rejudged_from ? ['replay of', run.rejudged_from] : null,
    ])], 'card identity')
  }

  function usage(s) {
    var a = s.aggregates, rows = [['cases', a.cases + ' (' + a.passed + ' passed, ' + a.failed + ' failed, ' + a.errored + ' errored), ' + s.samples]]
    rows.push(['target tokens', a.usage ? tokens(a.usage) : 'not reported'])
    rows.push(['judge tokens', a.judge_usage ? tokens(a.judge_usage) : 'not reported'])
    if (a.cost) rows.push(['cost', a.cost.total.toFixed(4) + ' (target ' + a.cost.target.toFixed(4) + ', judges ' + a.cost.judge.toFixed(4) + ')' + (a.cost.unpriced.length ? '; unpriced: ' + a.cost.unpriced.join(', ') : '')])
    else rows.push(['cost', 'no prices declared'])
    var known = ['cases', 'passed', 'failed', 'errored', 'pass_rate', 'pass_rate_ci95', 'mean_score', 'samples_per_case', 'usage', 'judge_usage', 'cost']
    for (var k in a) if (known.indexOf(k) < 0) rows.push([k.replace(/_/g, ' '), el('code', { text: JSON.stringify(a[k]) })])
    if (!('latency' in a) && !('latency_ms' in a)) rows.push(['latency', 'not recorded by this run'])
    return section('Tokens, cost, latency', [table(rows)])
  }

  function comparison(s) {
    var c = s.comparison
    if (!c) return section('Baseline', [el('p', { text: 'No baseline: judged by its thresholds alone.' })])
    if (c.status === 'unreadable') return section('Baseline', [el('p', { class: 'bad', text: 'The baseline cannot be read (' + c.problem.name + '): ' + c.problem.message.split('\n')[0] })])
    var vsRun = c.reference === 'run'
    var kids = [el('p', { class: 'against', text: vsRun
      ? 'Run ' + c.run.key + ' against run ' + c.baseline.key + ' (created ' + c.baseline.promoted_at + '), over the ' + c.shared + ' cases both judged: pass rate ' + pct(c.baseline.aggregates.pass_rate) + ' in B, ' + pct(c.run.aggregates.pass_rate) + ' in A.'
      : 'Against baseline ' + c.baseline.key + ' (promoted ' + c.baseline.promoted_at + '), pass rate ' + pct(c.baseline.aggregates.pass_rate) + ' then, ' + pct(c.run.aggregates.pass_rate) + ' now.' })]
    if (c.status === 'not-comparable') kids.push(el('p', { class: 'warn', text: 'Not comparable: ' + (vsRun ? 'run B was' : 'the baseline was') + ' judged by other rules, so this comparison does not gate.' }))
    if (vsRun && (c.added.length || c.removed.length)) kids.push(el('p', { class: 'warn case-sets', text: 'The case sets differ: ' + c.shared + ' shared, ' + c.added.length + ' only in A, ' + c.removed.length + ' only in B; the difference is over the shared cases.' }))
    if (c.changes && c.changes.words.length) kids.push(el('div', { class: 'changes' }, [el('b', { text: vsRun ? 'What changed from B to A' : 'What changed since the baseline' }), el('ul', {}, c.changes.words.map(function (w) { return el('li', { text: w }) }))]))
    differences(c).forEach(function (item) { kids.push(el('div', { class: 'diff' }, [differenceChart(item), el('p', { class: 'difference', text: differenceText(item) })])) })
    c.reasons.forEach(function (r) { kids.push(el('p', { class: 'bad' }, [el('b', { text: 'Regressed: ' }), r])) })
    if (!c.regressed && c.status === 'compared' && c.difference && c.difference.ci95) kids.push(el('p', { class: 'good', text: 'No regression: every interval reaches its tolerance or above.' }))
    kids.push(el('p', { text: 'pass \u2192 fail: ' + c.flipped.pass_to_fail.length + ', fail \u2192 pass: ' + c.flipped.fail_to_pass.length + (c.added.length ? (vsRun ? ', only in A: ' : ', added: ') + c.added.length : '') + (c.removed.length ? (vsRun ? ', only in B: ' : ', removed: ') + c.removed.length : '') }))
    var changeWords = c.changes ? c.changes.words : []
    c.warnings.forEach(function (w) { if (changeWords.indexOf(w) < 0) kids.push(el('p', { class: 'warn', text: 'Warning: ' + w })) })
    if (c.tags && c.tags.length) kids.push(byTag(c.tags))
    return section(vsRun ? 'Run A against run B' : 'Against the baseline', kids)
  }

  // Every metric by tag, each with its 95% interval; a tag whose paired interval leaves zero moved.
  function agreement(s) {
    if (!s.agreement || !s.agreement.length) return null
    var head = el('tr', {}, ['judge', 'kappa', '95% interval', 'labels', 'answers', 'agree', 'calibration'].map(function (t) { return el('th', { text: t }) }))
    var rows = s.agreement.map(function (a) {
      var gate = a.calibrated === null ? '\u2014' : a.calibrated ? 'calibrated' : 'not calibrated: ' + a.why
      return el('tr', { class: a.calibrated === false ? 'uncalibrated' : '' }, [a.judge, a.kappa === null ? 'n/a' : a.kappa.toFixed(2), a.ci95 ? a.ci95.low.toFixed(2) + ' \u2013 ' + a.ci95.high.toFixed(2) : '\u2014', String(a.labels), String(a.units), a.labels ? (a.observed * 100).toFixed(0) + '%' : '\u2014', gate].map(function (t) { return el('td', { text: t }) }))
    })
    var kids = [el('table', { class: 'agreement' }, [head].concat(rows))]
    if (s.not_judged) kids.unshift(el('p', { class: 'bad' }, [el('b', { text: 'Not judged: ' }), s.not_judged]))
    return section('Judges against human labels', kids)
  }

  function byTag(tags) {
    function ci(i, f) { return i ? ' [' + f(i.low) + ', ' + f(i.high) + ']' : '' }
    function num(x) { return x.toFixed(3) }
    function pts(x) { return (x > 0 ? '+' : x < 0 ? '−' : '') + Math.abs(x * 100).toFixed(1) }
    var head = el('tr', {}, ['tag', 'cases', 'pass rate', 'mean score', 'pass rate vs baseline (points)', 'moved'].map(function (t) { return el('th', { text: t }) }))
    return el('table', { class: 'by-tag' }, [head].concat(tags.map(function (t) {
      var d = t.against && t.against.pass_rate
      return el('tr', { class: t.moved ? 'moved' : '' }, [
        t.tag, String(t.cases),
        t.pass_rate ? pct(t.pass_rate.mean) + ci(t.pass_rate.ci95, pct) : 'n/a',
        t.mean_score ? num(t.mean_score.mean) + ci(t.mean_score.ci95, num) : 'n/a',
        d ? pts(d.mean) + ci(d.ci95, pts) : 'n/a',
        t.moved ? 'moved' : '',
      ].map(function (x) { return el('td', { text: x }) }))
    })))
  }

  function history(s) {
    var kids = [s.history.length ? historyChart(s.history, s.against ? 'run B' : 'baseline') : el('p', { text: 'No run yet.' })]
    if (s.register.length) {
      kids.push(el('h4', { text: 'Promotions' }))
      kids.push(el('table', { class: 'register' }, [el('tr', {}, ['promoted at', 'key', 'replaced', 'pass rate', 'cases'].map(function (t) { return el('th', { text: t }) }))].concat(
        s.register.slice().reverse().map(function (e) { return el('tr', {}, [e.promoted_at, e.key, e.replaced || '\u2014', pct(e.pass_rate), String(e.cases)].map(function (t) { return el('td', { text: t }) })) }))))
    } else kids.push(el('p', { text: 'No promotion yet.' }))
    return section('Recent runs and promotions', kids)
  }

  function samplesCell(samples) {
    var w = Math.max(8, samples.length * 9), g = svg('svg', { width: w, height: 10, viewBox: '0 0 ' + w + ' 10', role: 'img', 'aria-label': samples.filter(Boolean).length + ' of ' + samples.length + ' samples passed' })
    samples.forEach(function (p, i) { g.appendChild(svg('rect', { x: i * 9, y: 1, width: 7, height: 8, rx: 1.5, fill: p ? '#16a34a' : '#dc2626' })) })
    return el('span', { class: 'samples', title: samples.map(function (p, i) { return 'sample ' + i + ': ' + (p ? 'pass' : 'fail') }).join(', ') }, [g, ' ' + samples.filter(Boolean).length + '/' + samples.length])
  }
  function verdictTag(v) { return v === null ? el('span', { class: 'v none', text: '\u2014' }) : el('span', { class: 'v ' + v, text: v }) }

  // The reason and each scorer's own score per sample are in every document; answers only when recorded.
  function scoresTable(scores) {
    if (!scores.length || !scores.some(function (s) { return s.scorers.length })) return null
    // Rows of divs, not a table: the cases table's own rows stay the only rows in it.
    return el('div', { class: 'scores' }, scores.map(function (s) {
      return el('div', { class: 'sample' }, [el('b', { text: 'sample ' + s.sample + ' ' })].concat(s.scorers.map(function (sc) {
        return el('span', { class: 'scorer ' + (sc.pass ? 'pass' : 'fail'), 'data-scorer': sc.name, text: sc.name + ' ' + sc.score.toFixed(2) + (sc.pass ? ' pass' : ' fail') + (sc.borderline ? ' (borderline)' : '') + (sc.reason ? ': ' + sc.reason : '') })
      })))
    }))
  }

  // A sample's steps in order, each on a shared time axis: it starts where the steps before it
  // ended (their durations summed) and is as long as its own duration. A tool call's arguments,
  // result and error are in the data only when the run recorded answers.
  function ms(x) { return x === undefined ? 'no duration' : x + ' ms' }
  function bar(at, d, scale, fill) {
    var w = 220, g = svg('svg', { class: 'span-bar', width: w, height: 10, viewBox: '0 0 ' + w + ' 10', role: 'img', 'aria-label': 'from ' + at + ' ms for ' + ms(d) })
    g.appendChild(svg('rect', { x: 0, y: 4, width: w, height: 2, fill: '#f3f4f6' }))
    g.appendChild(svg('rect', { x: Math.min(w - 2, (at / scale) * w), y: 1, width: Math.max(2, ((d || 0) / scale) * w), height: 8, rx: 1.5, fill: fill }))
    return g
  }
  function stepsTally(steps) {
    var n = { total: 0, models: 0, tools: 0, failed: 0 }
    steps.forEach(function (s) { n.total += s.latency_ms || 0; if (s.type === 'model') n.models++; else { n.tools++; if (!s.ok) n.failed++ } })
    return n
  }
  function callsText(n) { return n.models + ' model call(s), ' + n.tools + ' tool call(s)' + (n.failed ? ', ' + n.failed + ' failed' : '') }
  // Steps from at ms on an axis of scale ms, each starting where the one before it ended.
  function stepItems(steps, at, scale) {
    return steps.map(function (s, i) {
      var kids = [el('span', { class: 'kind', text: s.type === 'model' ? 'model call' : 'tool call' }), el('span', { class: 'name', text: s.type === 'model' ? (s.model || 'model') : s.name }), bar(at, s.latency_ms, scale, s.type === 'model' ? '#6366f1' : s.ok ? '#0d9488' : '#dc2626'), el('span', { class: 'dur', text: ms(s.latency_ms) })]
      at += s.latency_ms || 0
      if (s.type === 'model' && s.usage) kids.push(el('span', { class: 'tok', text: tokens(s.usage) }))
      if (s.type === 'tool' && !s.ok) kids.push(el('span', { class: 'failed', text: 'failed' }))
      if (s.arguments !== undefined) kids.push(el('div', { class: 'args' }, [el('b', { text: 'arguments ' }), el('code', { text: shown(s.arguments) })]))
      if (s.result !== undefined) kids.push(el('div', { class: 'result' }, [el('b', { text: 'result ' }), el('code', { text: shown(s.result) })]))
      if (s.error !== undefined) kids.push(el('div', { class: 'step-error' }, [el('b', { text: 'error ' }), el('code', { text: s.error })]))
      return el('li', { class: 'step ' + s.type + (s.type === 'tool' && !s.ok ? ' failed' : ''), 'data-step': String(i), 'data-type': s.type }, kids)
    })
  }
  function timeline(t) {
    var n = stepsTally(t.steps)
    var tally = callsText(n) + ', ' + n.total + ' ms'
    return el('div', { class: 'trajectory', 'data-sample': String(t.sample) }, [el('b', { text: 'sample ' + t.sample + ' timeline ' }), el('span', { class: 'tally', text: tally }), el('ol', { class: 'timeline' }, stepItems(t.steps, 0, n.total || 1))])
  }
  // A conversation's turns in the order they were said, on one axis: a turn lasts its own duration
  // (or, without one, its steps' durations summed) and starts where the turn before it ended; the
  // target's steps inside a turn start where the turn starts. What was said is in the data only
  // when the run recorded answers.
  function conversation(c) {
    var spans = c.turns.map(function (t) { return t.latency_ms !== undefined ? t.latency_ms : stepsTally(t.steps || []).total })
    var total = spans.reduce(function (a, b) { return a + b }, 0), scale = total || 1, at = 0
    var users = 0, all = stepsTally([])
    var items = c.turns.map(function (t, i) {
      var steps = t.steps || [], n = stepsTally(steps)
      if (t.role === 'user') users++
      all.models += n.models; all.tools += n.tools; all.failed += n.failed
      var kids = [el('span', { class: 'role', text: t.role }), bar(at, spans[i], scale, t.role === 'user' ? '#a3a3a3' : '#1d4ed8'), el('span', { class: 'dur', text: ms(t.latency_ms) })]
      if (t.usage) kids.push(el('span', { class: 'tok', text: tokens(t.usage) }))
      if (steps.length) kids.push(el('span', { class: 'calls', text: callsText(n) }))
      if (t.content !== undefined) kids.push(el('div', { class: 'said' }, [el('code', { text: shown(t.content) })]))
      if (steps.length) kids.push(el('ol', { class: 'timeline' }, stepItems(steps, at, scale)))
      at += spans[i]
      return el('li', { class: 'turn ' + t.role, 'data-turn': String(i), 'data-role': t.role }, kids)
    })
    var tally = c.turns.length + ' turn(s): ' + users + ' user, ' + (c.turns.length - users) + ' assistant; ' + callsText(all) + ', ' + total + ' ms'
    return el('div', { class: 'conversation', 'data-sample': String(c.sample) }, [el('b', { text: 'sample ' + c.sample + ' conversation ' }), el('span', { class: 'tally', text: tally }), el('ol', { class: 'turns' }, items)])
  }

  function caseDetails(row, recorded) {
    var kids = []
    if (row.reason) kids.push(el('div', { class: 'reason' }, [el('b', { text: 'reason ' }), row.reason]))
    var table = scoresTable(row.scores || [])
    if (table) kids.push(table)
    if (row.input !== undefined) kids.push(el('div', {}, [el('b', { text: 'input ' }), el('code', { text: shown(row.input) })]))
    if (row.expected !== undefined) kids.push(el('div', {}, [el('b', { text: 'expected ' }), el('code', { text: shown(row.expected) })]))
    ;(row.answers || []).forEach(function (a, i) { kids.push(el('div', { class: 'answer' }, [el('b', { text: 'answer ' + i + ' ' }), el('code', { text: shown(a) })])) })
    var timelines = row.trajectories || [], talks = row.conversations || []
    timelines.forEach(function (t) { kids.push(timeline(t)) })
    talks.forEach(function (c) { kids.push(conversation(c)) })
    var what = timelines.length || talks.length ? (recorded ? 'answers, reason, scores and timeline' : 'reason, scores and timeline') : recorded ? 'answers, reason and scores' : 'reason and scores'
    return kids.length ? el('details', {}, [el('summary', { text: what })].concat(kids)) : null
  }

  // The cases arrive packed (case-columns.ts, ADR 0395): one array per case. Each is unpacked once
  // into a light row (what the table, the filters and the matrix need, with its id lowercased for the
  // search); the details (scores, timelines, answers) only when the row is drawn.
  var VERDICTS = ['pass', 'fail', 'error', null]
  function unpackCases(packed) {
    if (Array.isArray(packed)) return packed
    var strings = packed.strings
    return packed.rows.map(function (c, i) {
      var v = VERDICTS[c[1] >> 2], b = VERDICTS[c[1] & 3]
      return {
        i: i, id: c[0], key: c[0].toLowerCase(), verdict: v, baseline: b,
        flip: b === 'pass' && v === 'fail' ? 'pass_to_fail' : b === 'fail' && v === 'pass' ? 'fail_to_pass' : null,
        score: c[2] === undefined ? null : c[2],
        error: c[10] ? { cause: strings[c[10][0]], message: strings[c[10][1]] } : null,
        cells: c, strings: strings,
      }
    })
  }
  function tokenPair(a, b) { return a === undefined || a === null ? null : { input_tokens: a, output_tokens: b } }
  // A light row made whole, in the shape the host's CaseRow has (the review script reads it too).
  function whole(r) {
    if (r.whole) return r.whole
    if (!r.cells) return r
    var c = r.cells, strings = r.strings, rare = c[11] || {}
    var w = {
      id: r.id, verdict: r.verdict, baseline: r.baseline, flip: r.flip, score: r.score, error: r.error,
      samples: (c[3] || '').split('').map(function (x) { return x === '1' }),
      scores: (c[4] || []).map(function (cells, sample) {
        return { sample: sample, scorers: cells.map(function (x) {
          var sc = { name: strings[x[0]], pass: (x[1] & 1) === 1, score: x[2], reason: x.length > 3 ? strings[x[3]] : null }
          if (x[1] & 2) sc.borderline = true
          return sc
        }) }
      }),
      usage: tokenPair(c[5], c[6]), judge_usage: tokenPair(c[7], c[8]),
      reason: c[9] === undefined || c[9] === null ? null : strings[c[9]],
    }
    for (var k in rare) w[k] = rare[k]
    r.whole = w
    return w
  }
  function prepare(d) {
    d.suites.forEach(function (s) { s.cases = unpackCases(s.cases) })
    d.live.forEach(function (r) { r.cases = unpackCases(r.cases) })
    return d
  }

  function matches(row, f, q) {
    if (q && row.key.indexOf(q) < 0) return false
    if (f.verdict !== 'all' && row.verdict !== f.verdict) return false
    if (f.flip === 'flipped' && !row.flip) return false
    if (f.flip === 'pass_to_fail' || f.flip === 'fail_to_pass') return row.flip === f.flip
    return true
  }

  // Heights of the rows shown, summed as a Fenwick tree: where row k starts, and which row is at a
  // given offset, each in log(n) steps however many rows were measured.
  function Heights(n, guess) {
    this.n = n; this.tree = new Float64Array(n + 1); this.own = new Float64Array(n)
    for (var i = 0; i < n; i++) { this.own[i] = guess; this.tree[i + 1] += guess; var j = i + 1 + ((i + 1) & -(i + 1)); if (j <= n) this.tree[j] += this.tree[i + 1] }
  }
  Heights.prototype.set = function (k, h) { var d = h - this.own[k]; if (!d) return false; this.own[k] = h; for (var i = k + 1; i <= this.n; i += i & -i) this.tree[i] += d; return true }
  Heights.prototype.before = function (k) { var s = 0; for (var i = k; i > 0; i -= i & -i) s += this.tree[i]; return s }
  Heights.prototype.at = function (y) {
    var pos = 0, step = 1
    while (step * 2 <= this.n) step *= 2
    for (; step > 0; step >>= 1) if (pos + step <= this.n && this.tree[pos + step] <= y) { pos += step; y -= this.tree[pos] }
    return Math.min(pos, Math.max(0, this.n - 1))
  }

  var views = {}
  var mounted = []
  var ROW_GUESS = 25, MARGIN = 30

  // The baseline × run verdict counts of the rows shown, and the rows themselves. The table is
  // virtualised: only the rows in its scrolled window (and a margin) are in the document, between
  // two spacer rows that stand for the others' height. Filters, the open details and the scroll
  // position survive the viewer's redraws.
  // In the viewer's review mode (review-script.ts) each judged case of a filed run gets a label form.
  function cases(id, rows, recorded, hasBaseline, refName, filed) {
    refName = refName || 'baseline'
    var f = filters[id] || (filters[id] = { q: '', verdict: 'all', flip: 'all' })
    var view = views[id] || (views[id] = { top: 0, open: {}, heights: {} })
    var body = el('tbody')
    var grid = el('table', { class: 'matrix' })
    var count = el('span', { class: 'count' })
    var head = el('tr', {}, ['case', hasBaseline ? refName : null, 'run', 'score', 'samples', 'error / details', 'tokens'].filter(function (t) { return t !== null }).map(function (t) { return el('th', { text: t }) }))
    var thead = el('thead', {}, [head])
    var scroller = el('div', { class: 'case-scroll', tabindex: '0', 'aria-label': 'cases', 'data-scroll': id }, [el('table', { class: 'cases' }, [thead, body])])
    var shownRows = [], heights = null, guess = view.guess || ROW_GUESS, pending = false
    var from = 0, nodes = [], above = spacer('above'), below = spacer('below')

    function rowNode(r) {
      var w = whole(r)
      var details = caseDetails(w, recorded)
      if (details) {
        if (view.open[r.id]) details.open = true
        details.addEventListener('toggle', function () { if (details.open) view.open[r.id] = true; else delete view.open[r.id]; schedule() })
      }
      return el('tr', { class: 'case' + (r.flip ? ' flipped' : ''), 'data-case': r.id, 'data-verdict': r.verdict, 'data-row': String(r.i) }, [
        el('td', { class: 'id', text: r.id }),
        hasBaseline ? el('td', {}, [verdictTag(r.baseline)]) : null,
        el('td', {}, [verdictTag(r.verdict), r.flip ? el('span', { class: 'flip', text: r.flip === 'pass_to_fail' ? ' pass\u2192fail' : ' fail\u2192pass' }) : null]),
        el('td', { text: r.score === null ? '\u2014' : r.score.toFixed(2) }),
        el('td', {}, [samplesCell(w.samples)]),
        el('td', { class: 'error-cell' }, [r.error ? el('span', { class: 'error-message', text: r.error.cause + ': ' + r.error.message }) : null, details, filed && window.diglineReview ? window.diglineReview(w, filed, data) : null]),
        el('td', { class: 'tok', text: tokens(w.usage) }),
      ])
    }
    function spacer(which) { return el('tr', { class: 'spacer ' + which, 'aria-hidden': 'true' }, [el('td', { colspan: String(head.children.length) })]) }
    // A spacer is in the table only while it stands for some rows, so a table drawn whole has none.
    function place(node, h, before) {
      if (h > 0) { node.style.height = h + 'px'; if (node.parentNode !== body) body.insertBefore(node, before) }
      else if (node.parentNode === body) body.removeChild(node)
    }
    // The rows the scrolled window needs, give or take the margin.
    function windowOf() {
      var n = shownRows.length
      if (!n) return [0, 0]
      var attached = scroller.isConnected
      // the header sticks to the top of the box: what is in sight below it starts at scrollTop
      var top = attached ? scroller.scrollTop : 0
      var seen = attached && scroller.clientHeight ? scroller.clientHeight : window.innerHeight
      return [Math.max(0, heights.at(top) - MARGIN), Math.min(n, heights.at(top + seen) + 1 + MARGIN)]
    }
    // Draws the window, keeping the rows already drawn that stay in it (and so the focus inside
    // them); then measures the rows: one taller or shorter than thought (a wrapped error, open
    // details) corrects the sums, and the window is drawn once more if that moved it.
    function paint(settling) {
      pending = false
      var w = windowOf(), lo = w[0], hi = w[1], to = from + nodes.length
      if (hi <= from || lo >= to) {
        nodes.forEach(function (node) { body.removeChild(node) })
        nodes = []
        from = lo
        to = lo
      }
      while (from < lo && nodes.length) { body.removeChild(nodes.shift()); from++ }
      while (to > hi && nodes.length) { body.removeChild(nodes.pop()); to-- }
      if (!nodes.length) { from = lo; to = lo }
      var first = nodes[0] || null, ahead = []
      for (var k = lo; k < from; k++) ahead.push(rowNode(shownRows[k]))
      ahead.forEach(function (node) { body.insertBefore(node, first || (below.parentNode === body ? below : null)) })
      nodes = ahead.concat(nodes)
      from = lo
      for (k = to; k < hi; k++) { var node = rowNode(shownRows[k]); body.insertBefore(node, below.parentNode === body ? below : null); nodes.push(node) }
      place(above, heights.before(from), body.firstChild)
      place(below, heights.before(shownRows.length) - heights.before(from + nodes.length), null)
      if (!scroller.isConnected) return
      var moved = false
      nodes.forEach(function (node, j) {
        var h = node.getBoundingClientRect().height
        if (!h) return
        if (!view.guess) { view.guess = guess = h; measureAll() }
        var id = shownRows[from + j].id
        if (h === guess) delete view.heights[id]
        else view.heights[id] = h
        if (heights.set(from + j, h)) moved = true
      })
      if (moved) {
        place(above, heights.before(from), body.firstChild)
        place(below, heights.before(shownRows.length) - heights.before(from + nodes.length), null)
        if (!settling) paint(true)
      }
    }
    // The sums anew: each row as tall as last measured, or as the usual row.
    function measureAll() {
      var n = shownRows.length
      heights = new Heights(n, guess)
      for (var k = 0; k < n; k++) { var h = view.heights[shownRows[k].id]; if (h) heights.set(k, h) }
    }
    function schedule() { if (!pending) { pending = true; window.requestAnimationFrame(function () { paint() }) } }
    function draw() {
      var q = f.q.toLowerCase()
      shownRows = rows.filter(function (r) { return matches(r, f, q) })
      var n = shownRows.length
      measureAll()
      count.textContent = n + ' of ' + rows.length + ' cases'
      grid.textContent = ''
      if (hasBaseline) {
        var cols = ['pass', 'fail', 'error'], rowsV = ['pass', 'fail', 'error', null], tally = {}
        shownRows.forEach(function (r) { var k = r.baseline + '/' + r.verdict; tally[k] = (tally[k] || 0) + 1 })
        grid.appendChild(el('tr', {}, [el('th', { text: refName + ' \u2193 / run \u2192' })].concat(cols.map(function (c) { return el('th', { text: c }) }))))
        rowsV.forEach(function (b) {
          grid.appendChild(el('tr', {}, [el('th', { text: b === null ? 'not in ' + refName : b })].concat(cols.map(function (c) {
            var n = tally[b + '/' + c] || 0
            return el('td', { class: 'cell' + (n ? '' : ' zero') + ((b === 'pass' && c === 'fail') || (b === 'fail' && c === 'pass') ? ' flipcell' : ''), 'data-cell': (b || 'none') + '-' + c, text: String(n) })
          }))))
        })
      }
      nodes.forEach(function (node) { body.removeChild(node) })
      nodes = []
      if (scroller.isConnected) scroller.scrollTop = 0
      view.top = 0
      paint()
    }
    scroller.addEventListener('scroll', function () { view.top = scroller.scrollTop; schedule() }, { passive: true })
    function select(name, options, value, onChange) {
      return el('select', { name: name, 'aria-label': name, 'data-control': id + ':' + name, on: { change: function (e) { onChange(e.target.value); draw() } } }, options.map(function (o) { var opt = el('option', { value: o[0], text: o[1] }); if (o[0] === value) opt.selected = true; return opt }))
    }
    var controls = el('div', { class: 'controls' }, [
      el('input', { type: 'search', placeholder: 'case id', 'aria-label': 'search case id', 'data-control': id + ':q', value: f.q, on: { input: function (e) { f.q = e.target.value; draw() } } }),
      select('verdict', [['all', 'every verdict'], ['pass', 'pass'], ['fail', 'fail'], ['error', 'error']], f.verdict, function (v) { f.verdict = v }),
      hasBaseline ? select('flip', [['all', 'flipped or not'], ['flipped', 'flipped only'], ['pass_to_fail', 'pass \u2192 fail'], ['fail_to_pass', 'fail \u2192 pass']], f.flip, function (v) { f.flip = v }) : null,
      count,
    ])
    var top = view.top
    draw()
    // once in the document: back to where the person had scrolled, and the window measured
    mounted.push(function () { scroller.scrollTop = top; view.top = scroller.scrollTop; paint() })
    return section('Cases', [
      recorded ? null : el('p', { class: 'note', text: 'This run did not record answers: no answer, input or expected value is shown.' }),
      controls, hasBaseline ? grid : null, scroller,
    ].filter(Boolean))
  }

  var ERRORED_LISTED = 100
  function errored(rows) {
    var bad = rows.filter(function (r) { return r.error })
    if (!bad.length) return null
    var items = bad.slice(0, ERRORED_LISTED).map(function (r) { return el('li', {}, [el('b', { text: r.id }), ' (' + r.error.cause + '): ', el('span', { class: 'error-message', text: r.error.message })]) })
    var more = bad.length > ERRORED_LISTED ? el('p', { class: 'note', text: 'and ' + (bad.length - ERRORED_LISTED) + ' more: pick the verdict error in the cases table to see them all.' }) : null
    return section('Errored cases (' + bad.length + ')', [el('ul', { class: 'errored' }, items), more], 'card errors')
  }

  function suite(s) {
    var a = s.aggregates, hasBaseline = !!(s.comparison && s.comparison.status !== 'unreadable')
    var misses = s.misses.map(function (m) { return el('p', { class: 'bad', text: 'Missed threshold ' + m.field + ': ' + (m.field === 'pass_rate' ? pct(m.actual) : num(m.actual)) + ' < ' + (m.field === 'pass_rate' ? pct(m.required) : num(m.required)) }) })
    var head = el('div', { class: 'headline' }, [
      el('div', {}, [el('div', { class: 'rate', text: pct(a.pass_rate) }), el('div', { class: 'ci', text: a.pass_rate_ci95 ? '95% interval ' + pct(a.pass_rate_ci95.low) + ' \u2013 ' + pct(a.pass_rate_ci95.high) : 'no interval' })]),
      intervalBar(a.pass_rate, a.pass_rate_ci95),
      el('div', { class: 'mini', text: 'mean score ' + (a.mean_score === null ? 'n/a' : a.mean_score.toFixed(3)) + ' \u00b7 ' + a.passed + '/' + (a.passed + a.failed) + ' judged cases passed' }),
    ])
    return el('article', { class: 'suite', id: 'suite-' + s.suite, 'data-suite': s.suite }, [
      el('h2', {}, [s.suite + ' ', el('span', { class: 'status ' + s.status, text: STATUS[s.status] || s.status }), s.retired_at ? el('span', { class: 'status retired', text: 'retired' }) : null]),
      head,
    ].concat(misses, [comparison(s), agreement(s), errored(s.cases), cases(s.suite, s.cases, s.run.record_responses, hasBaseline, s.against ? 'run B' : 'baseline', s), history(s), usage(s),
      identity(s, s.run, s.against ? 'Run A' : 'Run'), s.against ? identity(s, s.against, 'Run B (compared against)') : null]).filter(Boolean))
  }

  // A suite's variants side by side: each metric with its interval, then every pair's verdict (ADR 0301).
  function variantMatrix(v) {
    function amount(a, d) { return a === null ? 'n/a' : a.mean.toFixed(d) + (a.ci95 ? ' [' + a.ci95.low.toFixed(d) + ', ' + a.ci95.high.toFixed(d) + ']' : '') }
    var head = el('tr', {}, ['variant', 'pass rate', 'mean score', 'cost / case', 'tokens / case', 'latency / case (ms)', 'run'].map(function (t) { return el('th', { text: t }) }))
    var rows = v.variants.map(function (r) {
      var rate = pct(r.pass_rate) + (r.pass_rate_ci95 ? ' [' + pct(r.pass_rate_ci95.low) + ', ' + pct(r.pass_rate_ci95.high) + ']' : '')
      return el('tr', { 'data-variant': r.variant }, [el('th', {}, [el('a', { href: '#suite-' + r.suite, text: r.variant })])].concat(
        [rate, amount(r.mean_score, 3), amount(r.cost_per_case, 6), amount(r.tokens_per_case, 1), amount(r.latency_per_case, 0), r.key].map(function (t) { return el('td', { text: t }) })))
    })
    var level = (v.level * 100).toFixed(v.pairs.length > 1 ? 2 : 0) + '% intervals (95% shared by ' + v.pairs.length + ' pair' + (v.pairs.length === 1 ? '' : 's') + ', Bonferroni)'
    var pairs = v.pairs.map(function (p) {
      var verdict = p.verdict === 'a_better' ? p.a + ' is better' : p.verdict === 'b_better' ? p.b + ' is better' : 'no difference shown'
      return el('tr', { 'data-pair': p.a + '/' + p.b }, [p.a + ' \u2212 ' + p.b, pts(p.difference) + ' [' + pts(p.interval.low) + ', ' + pts(p.interval.high) + ']', p.a_only + ' / ' + p.b_only + ' of ' + p.shared, verdict].map(function (t, i) { return el('td', { text: t, class: i === 3 ? 'verdict ' + p.verdict : null }) }))
    })
    return el('article', { class: 'suite variants', id: 'variants-' + v.suite, 'data-variants': v.suite }, [
      el('h2', { text: 'Variants of ' + v.suite }),
      el('table', { class: 'variant-matrix' }, [head].concat(rows)),
      v.pairs.length ? section('Pairs: the paired difference of pass rates in points, ' + level, [el('table', { class: 'variant-pairs' }, [el('tr', {}, ['pair', 'difference', 'passed only by A / only by B', 'verdict'].map(function (t) { return el('th', { text: t }) }))].concat(pairs))]) : null,
    ].filter(Boolean))
  }

  function liveRun(r) {
    var done = r.cases.length, of = r.declared
    return el('article', { class: 'suite live-run', 'data-live': r.suite + '/' + r.key }, [
      el('h2', {}, [r.suite + ' ', el('span', { class: 'status ' + (r.writing ? 'running' : 'pending'), text: r.writing ? 'running' : 'pending (no writer)' })]),
      el('p', { class: 'progress', text: done + (of === null ? '' : ' of ' + of) + ' cases finished \u00b7 run ' + r.key + (r.started_at ? ' \u00b7 started ' + r.started_at : '') }),
      of ? el('progress', { max: of, value: done }) : null,
      r.problem ? el('p', { class: 'bad', text: r.problem }) : null,
      errored(r.cases),
      cases('live:' + r.suite + '/' + r.key, r.cases, r.record_responses, false),
    ].filter(Boolean))
  }

  function render() {
    root.textContent = ''
    mounted = []
    var nav = el('nav', {}, data.suites.map(function (s) { return el('a', { href: '#suite-' + s.suite, text: s.suite + ' ' + pct(s.aggregates.pass_rate) }) }))
    root.appendChild(el('header', {}, [
      el('h1', { text: 'digline report' }),
      el('p', { class: 'meta', text: 'tenant ' + data.tenant + ' \u00b7 generated ' + data.generated_at + ' \u00b7 digline ' + data.digline_version + (config.live ? ' \u00b7 live: refreshed every second' : '') }),
      nav,
    ]))
    data.live.forEach(function (r) { root.appendChild(liveRun(r)) })
    ;(data.variants || []).forEach(function (v) { root.appendChild(variantMatrix(v)) })
    data.suites.forEach(function (s) { root.appendChild(suite(s)) })
    data.skipped.forEach(function (s) { if (!data.live.some(function (r) { return r.suite === s.suite })) root.appendChild(el('p', { class: 'note', text: s.suite + ': ' + s.reason })) })
    if (!data.suites.length && !data.live.length) root.appendChild(el('p', { class: 'note', text: 'No run to show yet.' }))
    mounted.forEach(function (m) { m() })
  }

  data = prepare(JSON.parse(dataNode.textContent))
  render()
  // the bench reads how long the first drawing took from this mark
  if (window.performance && performance.mark) performance.mark('digline-rendered')
  if (config.live) {
    // Each answer is generated anew: one that differs only in when it was generated is not news, and
    // redrawing for it every second would take a click whose press and release straddle the redraw.
    var news = function (text) { return text.replace(/"generated_at":"[^"]*"/, '') }
    var last = news(dataNode.textContent)
    var poll = function () {
      fetch(config.live, { cache: 'no-store' }).then(function (res) { return res.text() }).then(function (text) {
        var fresh = news(text)
        if (fresh === last) return
        last = fresh
        data = prepare(JSON.parse(text))
        // a redraw keeps the scroll position and the control being used (and the caret in the search box)
        var active = document.activeElement && document.activeElement.getAttribute('data-control')
        var caret = active && document.activeElement.selectionStart
        var y = window.scrollY
        render()
        window.scrollTo(0, y)
        var again = active && document.querySelector('[data-control="' + active.replace(/["\\]/g, '\\$&') + '"]')
        if (again) { again.focus(); if (typeof caret === 'number' && again.setSelectionRange) again.setSelectionRange(caret, caret) }
      }).catch(function () {}).then(function () { setTimeout(poll, 1000) })
    }
    setTimeout(poll, 1000)
  }
})()
`
