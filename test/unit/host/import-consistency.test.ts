// `digline import` refuses a document digline could never have written (issue 23 item 10): it is
// checked by the code the driver builds documents with, refused at the first field that disagrees,
// by its path, and nothing of the batch is filed. In process, against a real file store.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RunDocument } from '../../../src/document/schema.js'
import { serializeRun } from '../../../src/document/serialize.js'
import { InconsistentRunError } from '../../../src/host/lifecycle/errors.js'
import { importRuns } from '../../../src/host/lifecycle/import-runs.js'
import { createdAtSeconds, makeRun } from '../../helpers/make-run.js'
import { refusedWithoutChange, type ContractSubject } from '../../store/contract/harness.js'
import { makeTempStore, type TempStore } from '../../store/temp-store.js'

let temp: TempStore
let subject: ContractSubject
let given: string
beforeEach(() => {
  temp = makeTempStore()
  subject = { store: temp.store, locator: temp.root, snapshot: () => temp.snapshot(), cleanup: () => temp.cleanup() }
  given = mkdtempSync(join(tmpdir(), 'digline-import-consistency-'))
})
afterEach(() => {
  temp.cleanup()
  rmSync(given, { recursive: true, force: true })
})

function fileOf(doc: RunDocument, name: string): string {
  const file = join(given, `${name}.json`)
  writeFileSync(file, serializeRun(doc))
  return file
}

const [AT, LATER] = createdAtSeconds(2)

/** A document of 10 cases (case 3 fails), edited by `edit`: what a hand or a tool made of it. */
function edited(edit: (doc: RunDocument) => void): RunDocument {
  const doc = structuredClone(makeRun({ createdAt: LATER, results: 10 }))
  edit(doc)
  return doc
}

const CASES: [string, (doc: RunDocument) => void, string, RegExp][] = [
  [
    'aggregates that contradict the results',
    (doc) => Object.assign(doc.aggregates, { passed: 10, failed: 0, pass_rate: 1, mean_score: 1 }),
    'aggregates.passed',
    /it says 10 where its own results give 9 \(the aggregates come from the results\)/,
  ],
  [
    'a verdict pass with 0 passed samples',
    (doc) => Object.assign(doc.results[3]!, { verdict: 'pass', reason: null }),
    'results[3].verdict',
    /it says "pass" where its own results give "fail"/,
  ],
  [
    'a duplicated case row',
    (doc) => doc.results.push(structuredClone(doc.results[5]!)),
    'results[10].case_id',
    /case "case-00005" appears twice \(the case is also results\[5\]\)/,
  ],
  [
    'a sample whose pass its scorers do not give',
    (doc) => Object.assign(doc.results[3]!.samples[0]!, { pass: true }),
    'results[3].samples[0].pass',
    /a sample's pass and score come from its scorers/,
  ],
  [
    'an interval that is not the Wilson interval of the counts',
    (doc) => (doc.aggregates.pass_rate_ci95 = { low: 0.095, high: 0.905 }),
    'aggregates.pass_rate_ci95',
    /the aggregates come from the results/,
  ],
  ['fewer samples than the rules say', (doc) => (doc.rules.samples = 3), 'results[0].samples', /a judged case has as many samples as rules.samples/],
]

describe('import checks a document as strictly as the writer builds it', () => {
  it('files a document the driver could have written', async () => {
    const imported = await importRuns(temp.store, 'acme', [fileOf(makeRun({ createdAt: AT, results: 10 }), 'good')], given)
    expect(imported.map((i) => i.outcome)).toEqual(['filed'])
  })

  for (const [label, edit, path, detail] of CASES) {
    it(`refuses ${label} by name and path, and files nothing of the batch`, async () => {
      const good = fileOf(makeRun({ createdAt: AT, results: 10 }), 'good')
      const bad = fileOf(edited(edit), 'bad')
      const refusal = await refusedWithoutChange(subject, () => importRuns(temp.store, 'acme', [good, bad], given), InconsistentRunError)
      expect(refusal.message).toContain(`refused to import ${bad}: it contradicts itself at ${path}: `)
      expect(refusal.message).toMatch(detail)
      expect(refusal.message).toContain('nothing was imported')
      expect(refusal.path.join('.')).toBe(path.replace(/\[(\d+)\]/g, '.$1'))
      expect((await temp.store.listRuns('acme', 'capitals')).runs).toEqual([])
    })
  }
})
