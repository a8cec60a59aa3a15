// Figure 12: the report of a 1,000-case × 5-sample run. The run and its baseline (100 cases flipped,
// 10 errored, tokens on every sample) are written through the installed package's store; then
// `digline report` writes the file, and Chromium opens it from file:// and draws it. Measured: the
// file's size (and gzip's, which the page does not use: see ADR 0056), the time `digline report`
// takes, and the time from navigation to the page's own "drawn" mark, median of several loads. The
// same run with 64-byte answers recorded is shown beside it.
/* global document, requestAnimationFrame */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { fmt, median } from '../lib/stats.js'

const CASES = 1000
const SAMPLES = 5
const MB = 1_000_000
const CHROMIUM = process.env.DIGLINE_CHROMIUM ?? '/usr/bin/chromium'

function results(worse, recorded, cases = CASES) {
  const pad = String(cases).length
  return Array.from({ length: cases }, (_, i) => {
    const errored = worse && i % 100 === 7
    const failing = worse ? i % 10 === 3 : i % 50 === 3
    const samples = Array.from({ length: SAMPLES }, (_, s) => {
      const pass = !(failing && s !== 0)
      return {
        pass,
        score: pass ? 1 : 0,
        scorers: [{ name: 'exact', pass, score: pass ? 1 : 0, reason: null }],
        usage: { input_tokens: 120 + (i % 17), output_tokens: 30 + (s % 3) },
        ...(recorded ? { output: `answer ${i}/${s}: ${'x'.repeat(48)}`.slice(0, 64) } : {}),
      }
    })
    const passed = samples.filter((s) => s.pass).length
    if (errored)
      return {
        case_id: `case-${String(i).padStart(pad, '0')}`,
        verdict: 'error',
        score: null,
        passed_samples: 0,
        reason: null,
        error: { cause: 'target', message: `sample 0 of 5: timed out after 30000 ms` },
        samples: [],
      }
    return {
      case_id: `case-${String(i).padStart(pad, '0')}`,
      verdict: passed === SAMPLES ? 'pass' : 'fail',
      score: passed / SAMPLES,
      passed_samples: passed,
      reason: null,
      error: null,
      samples,
    }
  })
}

async function writeRuns(pkg, store, recorded, cases = CASES) {
  const { openStore } = await import(join(pkg, 'dist/src/store/open-store.js'))
  const { aggregate } = await import(join(pkg, 'dist/src/driver/aggregate.js'))
  const { baselineOf } = await import(join(pkg, 'dist/src/document/baseline.js'))
  const { keyFor } = await import(join(pkg, 'dist/src/suite/keys.js'))
  const s = openStore({ store })
  const rules = { samples: SAMPLES, min_agreement: 1, thresholds: { pass_rate: 0.8 }, tolerances: { pass_rate: 0.02 } }
  const doc = (createdAt, worse) => {
    const res = results(worse, recorded, cases)
    return {
      schema_version: 1,
      digline_version: '0.1.0',
      tenant: 'acme',
      environment: 'bench',
      suite: 'big',
      created_at: createdAt,
      config_hash: '0123456789ab',
      git_commit: 'f00dfeed',
      record_responses: recorded,
      target_config: { model: 'bench-model', temperature: 0 },
      judge_config: { scorers: [{ name: 'exact', config: {}, pass_at: 1 }] },
      artifacts: {},
      metadata: {},
      rules,
      observed: { target_model: 'bench-model-2026', judge_models: {} },
      aggregates: aggregate(res, rules),
      results: res,
    }
  }
  const base = doc('2026-11-29T10:00:00.000001Z', false)
  await s.writeRun(base)
  const key = keyFor(base.created_at, base.config_hash)
  const promotedAt = '2026-11-29T11:00:00.000001Z'
  const a = base.aggregates
  await s.promote({
    tenant: 'acme',
    suite: 'big',
    expected: null,
    baseline: baselineOf(base, key, promotedAt),
    entry: {
      promoted_at: promotedAt,
      suite: 'big',
      key,
      replaced: null,
      config_hash: base.config_hash,
      cases: a.cases,
      passed: a.passed,
      failed: a.failed,
      pass_rate: a.pass_rate,
    },
  })
  await s.writeRun(doc('2026-11-30T10:00:00.000001Z', true))
}

/** Waits for the page's own "drawn" mark and the paint after it; both from navigation start. */
async function drawn(page) {
  await page.waitForFunction(() => performance.getEntriesByName('digline-rendered').length > 0, undefined, { timeout: 600_000, polling: 50 })
  return page.evaluate(
    () =>
      new Promise((resolve) =>
        requestAnimationFrame(() =>
          setTimeout(() => {
            const paint = performance.getEntriesByName('first-contentful-paint')[0]
            resolve({ drawnMs: performance.getEntriesByName('digline-rendered')[0].startTime, paintMs: paint ? paint.startTime : NaN })
          }, 0),
        ),
      ),
  )
}

/** Time from changing a control of the cases table to the frame after the table is redrawn. */
async function filterMs(page, control, value) {
  return page.evaluate(
    ([control, value]) =>
      new Promise((resolve) => {
        const node = document.querySelector(`[data-suite="big"] [data-control="big:${control}"]`)
        const t = performance.now()
        node.value = value
        node.dispatchEvent(new Event(node.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }))
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t), 0))
      }),
    [control, value],
  )
}

// The report of a large run (100,000 cases; 20,000 in quick mode): its size, how soon Chromium paints
// it, and how long a filter of its cases table takes, each the median of several loads.
async function largeReport({ install, quick, tmp, browser, log }) {
  const cases = quick ? 20_000 : 100_000
  const loads = 3
  const dir = join(tmp, 'report-large')
  mkdirSync(dir, { recursive: true })
  const t0 = performance.now()
  await writeRuns(install.pkg, join(dir, '.digline'), false, cases)
  log(`report (${fmt.int(cases)} cases): runs written in ${fmt.ms(performance.now() - t0)}`)
  const file = join(dir, 'report.html')
  const writeMs = []
  for (let r = 0; r < loads; r++) {
    const t = performance.now()
    execFileSync(process.execPath, [install.dist('bundle/src/cli/bin.js'), 'report', '--store', join(dir, '.digline'), '--tenant', 'acme', '--out', file], {
      cwd: dir,
      stdio: 'ignore',
    })
    writeMs.push(performance.now() - t)
  }
  const bytes = statSync(file).size
  const target = `case-${String(cases - 1000).padStart(String(cases).length, '0')}`
  const paintMs = [],
    drawnMs = [],
    searchMs = [],
    flippedMs = [],
    found = []
  for (let r = 0; r < loads; r++) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    await page.goto(pathToFileURL(file).href, { timeout: 600_000 })
    const at = await drawn(page)
    paintMs.push(at.paintMs)
    drawnMs.push(at.drawnMs)
    searchMs.push(await filterMs(page, 'q', target))
    found.push(await page.locator(`[data-suite="big"] tr[data-case="${target}"]`).count())
    await filterMs(page, 'q', '')
    flippedMs.push(await filterMs(page, 'flip', 'flipped'))
    await page.close()
  }
  log(`report (${fmt.int(cases)} cases): ${fmt.mib(bytes)}, painted ${fmt.ms(median(paintMs))}, search ${fmt.ms(median(searchMs))}, flipped ${fmt.ms(median(flippedMs))}`)
  const n = quick ? `${fmt.int(cases)} cases (quick mode; the full run takes 100,000)` : `${fmt.int(cases)} cases`
  return {
    raw: { cases, bytes, writeMs, paintMs, drawnMs, searchMs, flippedMs, found },
    rows: [
      { figure: `12. report of ${n} × ${SAMPLES} samples against a baseline: file size`, value: `${(bytes / MB).toFixed(2)} MB`, goal: '≤ 25 MB', pass: bytes <= 25 * MB },
      {
        figure: `12. the same: Chromium's first paint from file:// (navigation start → first contentful paint; drawn mark), median of ${loads}`,
        value: `${fmt.ms(median(paintMs))} (drawn ${fmt.ms(median(drawnMs))})`,
        goal: '≤ 2 s',
        pass: median(paintMs) <= 2000,
      },
      {
        figure: `12. the same: a filter of the cases table (search "${target}", found ${Math.min(...found)}; flipped only), input → next frame, median of ${loads}`,
        value: `${fmt.ms(median(searchMs))}; ${fmt.ms(median(flippedMs))}`,
        goal: '≤ 300 ms',
        pass: Math.max(median(searchMs), median(flippedMs)) <= 300 && Math.min(...found) === 1,
      },
      { figure: `12. the same: \`digline report\` writes the file (whole process, median of ${loads})`, value: fmt.ms(median(writeMs)), goal: '—', pass: null },
    ],
  }
}

/** /proc/self/io's rchar: every byte this process read through a read call. */
function rchar() {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))[1])
}

// `digline view` following a live run of 100,000 cases (20,000 in quick mode): the journal is
// written through the installed package's file store, then followed as the viewer follows it. Each
// poll after 10 more cases were appended reads what was appended; Store.pending, which the viewer
// called on every poll before, reads the whole journal. Median of 5 polls each.
async function viewerPoll({ install, quick, tmp, log }) {
  const cases = quick ? 20_000 : 100_000
  const { openStore } = await import(join(install.pkg, 'dist/src/store/open-store.js'))
  const { JOURNAL_VERSION } = await import(join(install.pkg, 'dist/src/store/journal.js'))
  const { leaseOfThisProcess } = await import(join(install.pkg, 'dist/src/store/live-writer.js'))
  const root = join(tmp, 'viewer-poll', '.digline')
  const store = openStore({ store: root })
  const res = results(false, false, cases)
  const created = '2026-11-30T10:00:00.000001Z'
  const opening = {
    journal_version: JOURNAL_VERSION,
    created_at: created,
    started_at: created,
    digline_version: '0.1.0',
    tenant: 'acme',
    environment: 'bench',
    suite: 'big',
    config_hash: '0123456789ab',
    cases_digest: 'c0ffee00c0ffee00',
    artifacts: {},
    target_config: { model: 'bench-model' },
    judge_config: { scorers: [{ name: 'exact', config: {}, pass_at: 1 }] },
    record_responses: false,
    git_commit: null,
    lease: leaseOfThisProcess(),
    declared: { samples: SAMPLES, digests: Object.fromEntries(res.map((r, i) => [r.case_id, i.toString(16).padStart(12, '0')])) },
  }
  const leg = await store.openJournal(opening, 1)
  const observed = { target_model: 'bench-model', judge_models: {} }
  const append = async (from, to) => {
    for (let start = from; start < to; start += 2000)
      await Promise.all(res.slice(start, Math.min(to, start + 2000)).map((result, i) => leg.append({ result, cause: result.error?.cause ?? null, observed, index: start + i })))
  }
  const polls = 5
  await append(0, cases - polls * 10)
  const file = join(
    root,
    readdirSync(root, { recursive: true }).find((f) => String(f).endsWith('.1.jsonl')),
  )
  const follower = store.followPending('acme', 'big')
  await follower.poll()
  const followBytes = [],
    followRchar = [],
    followMs = [],
    fullBytes = [],
    fullMs = []
  let size = 0
  for (let p = 0; p < polls; p++) {
    const at = cases - polls * 10 + p * 10
    await append(at, at + 10)
    size = statSync(file).size
    let r = rchar()
    let t = performance.now()
    await follower.poll()
    followMs.push(performance.now() - t)
    followRchar.push(rchar() - r)
    followBytes.push(follower.lastRead.bytes)
    r = rchar()
    t = performance.now()
    await store.pending('acme', 'big')
    fullMs.push(performance.now() - t)
    fullBytes.push(rchar() - r)
  }
  await leg.close()
  await store.close()
  log(`viewer poll (${fmt.int(cases)} cases): ${fmt.bytes(median(followRchar))} read per poll of a ${fmt.mib(size)} journal; a full read ${fmt.bytes(median(fullBytes))}`)
  const n = quick ? `${fmt.int(cases)} cases (quick mode; the full run takes 100,000)` : `${fmt.int(cases)} cases`
  return {
    raw: { cases, journalBytes: size, followBytes, followRchar, followMs, fullBytes, fullMs },
    rows: [
      {
        figure: `12. \`digline view\` follows a live journal of ${n}: bytes a poll reads after 10 more cases (the process's read count; the lines folded), against the journal's size; Store.pending (every poll before) beside it, median of ${polls}`,
        value: `${fmt.bytes(median(followRchar))} (${fmt.bytes(median(followBytes))} of lines) of ${fmt.mib(size)}, ${fmt.ms(median(followMs))}; full read ${fmt.bytes(median(fullBytes))}, ${fmt.ms(median(fullMs))}`,
        goal: 'only what is new',
        pass: median(followRchar) < size / 100,
      },
    ],
  }
}

export async function report({ install, quick, tmp, log }) {
  const { chromium } = await import('playwright-core')
  const loads = quick ? 3 : 7
  const variants = [
    { name: 'answers not recorded', recorded: false },
    { name: '64-byte answers recorded', recorded: true },
  ]
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  })
  const rows = []
  const raw = {}
  try {
    for (const v of variants) {
      const dir = join(tmp, `report-${v.recorded ? 'answers' : 'plain'}`)
      mkdirSync(dir, { recursive: true })
      await writeRuns(install.pkg, join(dir, '.digline'), v.recorded)
      const file = join(dir, 'report.html')
      const writeMs = []
      for (let r = 0; r < loads; r++) {
        const t = performance.now()
        execFileSync(process.execPath, [install.dist('bundle/src/cli/bin.js'), 'report', '--store', join(dir, '.digline'), '--tenant', 'acme', '--out', file], {
          cwd: dir,
          stdio: 'ignore',
        })
        writeMs.push(performance.now() - t)
      }
      const bytes = statSync(file).size
      const gzipBytes = gzipSync(readFileSync(file)).length
      const renderMs = []
      const requests = []
      for (let r = 0; r < loads; r++) {
        const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
        page.on('request', (q) => requests.push(q.url()))
        await page.goto(pathToFileURL(file).href)
        renderMs.push((await drawn(page)).drawnMs)
        await page.close()
      }
      const foreign = requests.filter((u) => u !== pathToFileURL(file).href).length
      log(`report (${v.name}): ${fmt.kib(bytes)}, gzip ${fmt.kib(gzipBytes)}, drawn in ${fmt.ms(median(renderMs))}`)
      raw[v.name] = { bytes, gzipBytes, renderMs, writeMs, foreignRequests: foreign }
      rows.push(
        {
          figure: `12. report of ${fmt.int(CASES)} cases × ${SAMPLES} samples against a baseline (${v.name}): file size (gzip, for reference)`,
          value: `${(bytes / MB).toFixed(3)} MB (${(gzipBytes / MB).toFixed(3)} MB)`,
          goal: v.recorded ? '—' : '< 1 MB',
          pass: v.recorded ? null : bytes < MB,
        },
        {
          figure: `12. the same: Chromium draws it from file:// (navigation start → drawn, median of ${loads}); requests beyond the file`,
          value: `${fmt.ms(median(renderMs))}; ${foreign} requests`,
          goal: '< 1 s; 0 requests',
          pass: median(renderMs) < 1000 && foreign === 0,
        },
        { figure: `12. the same: \`digline report\` writes the file (whole process, median of ${loads})`, value: fmt.ms(median(writeMs)), goal: '—', pass: null },
      )
    }
    const large = await largeReport({ install, quick, tmp, browser, log })
    rows.push(...large.rows)
    raw.large = large.raw
    const poll = await viewerPoll({ install, quick, tmp, log })
    rows.push(...poll.rows)
    raw.viewerPoll = poll.raw
  } finally {
    await browser.close()
  }
  return { rows, raw }
}
