// Figure 6 (in its own process): a run against a baseline of CASES cases. compareRuns on documents
// in memory, and the whole comparison from disk: read the baseline and the run, then compare; beside
// it, in the same repetition, a bare read and JSON.parse of the same two files.
import { mkdtempSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { caseResult, gc, importDist, reply, runDocument } from './common.js'

const { pkg, dir, cases, reps } = JSON.parse(process.argv[2])
const { FileResultStore, keyFor } = await importDist(pkg, 'src/store/index.js')
const { aggregate } = await importDist(pkg, 'src/driver/aggregate.js')
const { compareRuns } = await importDist(pkg, 'src/host/judge/compare.js')
const { baselineOf } = await importDist(pkg, 'src/document/baseline.js')

const tenant = 'bench'
const suite = 'compare'
// The run flips one case in 50 against the baseline.
const baseRun = runDocument({ tenant, suite, index: 0, aggregate, results: Array.from({ length: cases }, (_, i) => caseResult(i)) })
const run = runDocument({ tenant, suite, index: 1, aggregate, results: Array.from({ length: cases }, (_, i) => caseResult(i, { flip: i % 50 === 0 })) })
const baseline = baselineOf(baseRun, keyFor(baseRun.created_at, baseRun.config_hash), '2026-01-01T12:00:00.000000Z')

const memoryMs = []
let compared
for (let r = 0; r < reps; r++) {
  gc()
  const t = process.hrtime.bigint()
  compared = compareRuns(baseline, run)
  memoryMs.push(Number(process.hrtime.bigint() - t) / 1e6)
}
if (compared.shared !== cases) throw new Error(`compared ${compared.shared} shared cases, expected ${cases}`)

const store = new FileResultStore({ root: mkdtempSync(join(dir, 'compare-')) })
let t = process.hrtime.bigint()
const stored = await store.writeRun(run)
const writeRunMs = Number(process.hrtime.bigint() - t) / 1e6
const stBaseline = await store.writeBaseline(baseline)
const files = [stBaseline.location, stored.location]

function bareParse() {
  let seen = 0
  for (const file of files) seen += JSON.parse(readFileSync(file, 'utf8')).results.length
  if (seen !== 2 * cases) throw new Error(`bare parse saw ${seen} cases, expected ${2 * cases}`)
}

const diskMs = []
const readBaselineMs = []
const readRunMs = []
const bareParseMs = []
const timeBare = () => {
  gc()
  const start = process.hrtime.bigint()
  bareParse()
  bareParseMs.push(Number(process.hrtime.bigint() - start) / 1e6)
}
for (let r = 0; r < reps; r++) {
  // The bare parse goes first in even repetitions and last in odd ones.
  if (r % 2 === 0) timeBare()
  gc()
  t = process.hrtime.bigint()
  const b = await store.readBaseline(tenant, suite)
  const t1 = process.hrtime.bigint()
  const doc = await store.readRun(tenant, suite, stored.key)
  const t2 = process.hrtime.bigint()
  compared = compareRuns(b, doc)
  const t3 = process.hrtime.bigint()
  diskMs.push(Number(t3 - t) / 1e6)
  readBaselineMs.push(Number(t1 - t) / 1e6)
  readRunMs.push(Number(t2 - t1) / 1e6)
  if (r % 2 === 1) timeBare()
}
reply({
  cases,
  memoryMs,
  diskMs,
  readBaselineMs,
  readRunMs,
  bareParseMs,
  writeRunMs,
  flipped: compared.flipped.pass_to_fail.length + compared.flipped.fail_to_pass.length,
  regressed: compared.regressed,
})
