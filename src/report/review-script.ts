// The review mode's script (docs/adr/0340), put in the page only by `digline view --review`, before
// the report's own script: it gives each judged case of a filed run a label form, and the labels
// already made. A form keeps what the person typed across the page's redraws (drafts). The label is
// posted to the viewer with the session's token from the page's config; the reviewer and the time
// are the viewer's, never the page's. Plain ES2020, no template literals (the text lives in one).
export const REVIEW_SCRIPT = String.raw`
(function () {
  'use strict'
  var review = JSON.parse(document.getElementById('digline-config').textContent).review
  var drafts = {}

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
  function select(control, options, value, onChange) {
    return el('select', { 'data-control': control, 'aria-label': control, on: { change: function (e) { onChange(e.target.value) } } }, options.map(function (o) {
      var opt = el('option', { value: o[0], text: o[1] }); if (o[0] === value) opt.selected = true; return opt
    }))
  }
  // What each scorer said of the case: passed in every sample, or not.
  function judgeSaid(row, name) {
    var seen = 0, passed = 0
    ;(row.scores || []).forEach(function (s) { s.scorers.forEach(function (x) { if (x.name === name) { seen++; if (x.pass) passed++ } }) })
    return seen === 0 ? 'no score' : passed === seen ? 'pass' : passed === 0 ? 'fail' : passed + '/' + seen + ' samples pass'
  }
  // Each reviewer's newest label of the case (the store lists them oldest first).
  function labelsOf(data, suite, run, caseId) {
    var newest = {}
    ;(data.reviews || []).forEach(function (r) { if (r.suite === suite && r.run === run && r.case_id === caseId) newest[r.reviewer] = r })
    return Object.keys(newest).sort().map(function (k) { return newest[k] })
  }
  function describe(r) {
    var judges = Object.keys(r.judges).map(function (n) { return (r.judges[n] === 'agree' ? 'agrees with ' : 'disagrees with ') + n }).join(', ')
    return r.reviewer + ': ' + r.verdict + (judges ? ' (' + judges + ')' : '') + (r.note ? ' \u2014 ' + r.note : '')
  }

  function post(body, d, status) {
    d.status = 'saving\u2026'
    status.textContent = d.status
    fetch(review.path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-digline-token': review.token }, body: JSON.stringify(body), cache: 'no-store' })
      .then(function (res) { return res.json().then(function (answer) { return { ok: res.ok, status: res.status, answer: answer } }) })
      .then(function (r) {
        d.status = r.ok ? 'saved' : 'refused (' + r.status + ' ' + r.answer.refusal.name + '): ' + r.answer.refusal.message.split('\n')[0]
        d.state = r.ok ? 'saved' : 'refused'
      }, function (e) { d.status = 'not saved: ' + e; d.state = 'refused' })
      .then(function () { status.textContent = d.status; status.setAttribute('data-state', d.state) })
  }

  window.diglineReview = function (row, s, data) {
    if (row.verdict === 'error') return null
    var id = s.suite + '/' + s.run.key + '/' + row.id
    var d = drafts[id] || (drafts[id] = { open: false, verdict: '', judges: {}, note: '', status: '', state: '' })
    var labels = labelsOf(data, s.suite, s.run.key, row.id)
    var mine = labels.filter(function (r) { return r.reviewer === review.reviewer })[0]
    var status = el('span', { class: 'review-status', 'data-state': d.state, text: d.status })
    var judges = s.run.judge_config.scorers.map(function (sc) {
      return el('label', { class: 'review-judge' }, [sc.name + ' said ' + judgeSaid(row, sc.name) + ': ',
        select('review:' + id + ':judge:' + sc.name, [['', '\u2014'], ['agree', 'agree'], ['disagree', 'disagree']], d.judges[sc.name] || '', function (v) { if (v) d.judges[sc.name] = v; else delete d.judges[sc.name] })])
    })
    var note = el('textarea', { 'data-control': 'review:' + id + ':note', 'aria-label': 'note', maxlength: 4000, rows: 2, placeholder: 'note (optional)', on: { input: function (e) { d.note = e.target.value } } })
    note.value = d.note
    var save = el('button', { type: 'button', 'data-control': 'review:' + id + ':save', on: { click: function () {
      if (d.verdict !== 'pass' && d.verdict !== 'fail') { d.status = 'choose the right verdict first'; d.state = 'refused'; status.textContent = d.status; status.setAttribute('data-state', d.state); return }
      post({ suite: s.suite, run: s.run.key, case_id: row.id, judges: d.judges, verdict: d.verdict, note: d.note === '' ? null : d.note }, d, status)
    } }, text: 'save label' })
    var box = el('details', { class: 'review', 'data-review': row.id, open: d.open }, [
      el('summary', { text: 'label' + (mine ? ' (yours: ' + mine.verdict + ')' : '') + (labels.length ? ' \u00b7 ' + labels.length + ' reviewer' + (labels.length === 1 ? '' : 's') : '') }),
      el('div', { class: 'review-form' }, [
        el('label', {}, ['right verdict: ', select('review:' + id + ':verdict', [['', 'choose'], ['pass', 'pass'], ['fail', 'fail']], d.verdict, function (v) { d.verdict = v })]),
      ].concat(judges, [note, save, status])),
      labels.length ? el('ul', { class: 'review-labels' }, labels.map(function (r) { return el('li', { 'data-reviewer': r.reviewer, text: describe(r) }) })) : null,
    ])
    box.addEventListener('toggle', function () { d.open = box.open })
    return box
  }
})()
`
