// reportData over a real file store in a temp directory: what the page is given, and what it is not.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { RunDocument } from '../../../src/document/schema.js'
import { reportData } from '../../../src/host/report-data/report-data.js'
import { openStore } from '../../../src/store/open-store.js'
import { keyOf, makeRun, promoteFirst } from '../../helpers/make-run.js'

function storeWith(docs: RunDocument[]) {
  const store = openStore({ store: join(mkdtempSync(join(tmpdir(), 'digline-report-data-')), '.digline') })
  return { store, ready: Promise.all(docs.map((d) => store.writeRun(d))) }
}

async function promote(store: ReturnType<typeof openStore>, doc: RunDocument) {
  await promoteFirst(store, doc, '2026-11-29T23:00:00.000001Z')
}

describe('reportData', () => {
  test('rows carry verdicts, flips, samples and reasons; answers only when the run recorded them', async () => {
    const base = makeRun({ results: 8, createdAt: '2026-11-29T10:00:00.000001Z' })
    const worse = makeRun({ results: 8, createdAt: '2026-11-30T10:00:00.000001Z', reasonLength: 12 })
    // case 0 now fails; case 3 (failing in both) now passes
    worse.results[0] = { ...worse.results[0]!, verdict: 'fail', score: 0, samples: [{ ...worse.results[0]!.samples[0]!, pass: false, output: 'SECRET-ANSWER' }] }
    worse.results[3] = { ...worse.results[3]!, verdict: 'pass', score: 1 }
    const { store, ready } = storeWith([base, worse])
    await ready
    await promote(store, base)

    const data = await reportData(store, { tenant: 'acme', suites: [], run: 'latest' })
    expect(data.suites.map((s) => s.suite)).toEqual(['capitals'])
    const suite = data.suites[0]!
    expect(suite.run.key).toBe(keyOf(worse))
    expect(suite.history.map((h) => [h.key, h.baseline])).toEqual([
      [keyOf(base), true],
      [keyOf(worse), false],
    ])
    expect(suite.register.map((e) => e.key)).toEqual([keyOf(base)])
    expect(suite.cases[0]).toMatchObject({ id: 'case-00000', verdict: 'fail', baseline: 'pass', flip: 'pass_to_fail', samples: [false] })
    expect(suite.cases[3]).toMatchObject({ verdict: 'pass', baseline: 'fail', flip: 'fail_to_pass' })
    expect(suite.cases[1]!.flip).toBeNull()
    // record_responses false: the answer stays out; the reason is shown as the terminal printed it
    // (a reason never quotes an unrecorded answer, SPEC §7; ADR 0164, issue 23 item 19)
    for (const row of suite.cases) expect(Object.keys(row)).not.toEqual(expect.arrayContaining(['answers']))
    expect(JSON.stringify(data)).not.toContain('SECRET-ANSWER')
    expect(suite.cases[1]).toMatchObject({ reason: 'rrrrrrrrrrrr' })

    worse.record_responses = true
    const recorded = storeWith([{ ...worse, suite: 'recorded' }])
    await recorded.ready
    const shown = await reportData(recorded.store, { tenant: 'acme', suites: ['recorded'], run: 'latest' })
    expect(shown.suites[0]!.cases[0]).toMatchObject({ reason: 'rrrrrrrrrrrr', answers: ['SECRET-ANSWER'], baseline: null, flip: null })
  })

  test('a named run needs one suite; a named suite without runs is refused, or skipped for the viewer', async () => {
    const { store, ready } = storeWith([makeRun({ suite: 'a' }), makeRun({ suite: 'b' })])
    await ready
    await expect(reportData(store, { tenant: 'acme', suites: [], run: '20261129T223956123456Z-3f9a0c1b2d4e' })).rejects.toMatchObject({ name: 'RunNotFoundError', exitCode: 64 })
    await expect(reportData(store, { tenant: 'acme', suites: ['empty'], run: 'latest' })).rejects.toMatchObject({ name: 'RunNotFoundError' })
    const viewer = await reportData(store, { tenant: 'acme', suites: ['empty', 'a'], run: 'latest', skipEmpty: true, withLive: true })
    expect(viewer.suites.map((s) => s.suite)).toEqual(['a'])
    expect(viewer.skipped).toEqual([{ suite: 'empty', reason: 'no run has been written yet' }])
    expect(viewer.live).toEqual([])
  })
})
