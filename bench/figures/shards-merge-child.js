// Figure 11, the merge (in its own process): a suite of CASES cases split in 4 shards, each shard's
// journal written in its own file store as a shard writes it (header with the shard, declared
// cases, an observed record, its case records), then timed: planMerge over the 4 stores (every
// check of `digline merge`) plus fileMergedRun (read the journals again, check them against the
// suite, build the one run document, file it), as the CLI and the worker do.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { caseResult, gc, importDist, reply } from './common.js'

const input = JSON.parse(process.argv[2])
const { pkg, dir, cases, reps } = input
const SHARDS = 4
const { resolveSuite } = await importDist(pkg, 'src/suite/resolve-suite.js')
const { exact } = await importDist(pkg, 'src/scorers/exact.js')
const { prepareRun } = await importDist(pkg, 'src/host/launch/prepare-run.js')
const { journalHeaderFor } = await importDist(pkg, 'src/host/launch/resume.js')
const { planMerge, fileMergedRun } = await importDist(pkg, 'src/host/lifecycle/merge-shards.js')
const { splitCases } = await importDist(pkg, 'src/host/launch/shard.js')
const { encodeCase, encodeDeclared, encodeHeader, encodeObserved } = await importDist(pkg, 'src/store/journal-format.js')
const { openStore } = await importDist(pkg, 'src/store/open-store.js')

const tenant = 'bench'
const root = mkdtempSync(join(dir, 'merge-'))
const projectRoot = join(root, 'project')
mkdirSync(projectRoot)
const suite = resolveSuite({
  name: 'merge',
  cases: Array.from({ length: cases }, (_, i) => ({ id: caseResult(i).case_id, input: i, expected: `ok-${i}` })),
  target: { config: { model: 'geo-v1' }, ask: () => ({ output: 'unused' }) },
  scorers: [exact()],
})
const ctx = (store) => ({ tenant, environment: 'local', storeRoot: store, projectRoot, env: { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' } })
const observed = { target_model: 'geo-v1-2026-01', judge_models: {} }
const results = new Map(Array.from({ length: cases }, (_, i) => [caseResult(i).case_id, caseResult(i)]))

// The shards' stores, written in bulk (one write per leg): the bytes FileJournal would have appended one record at a time.
const stores = []
let key
for (let index = 1; index <= SHARDS; index++) {
  const store = join(root, `shard-${index}`, '.digline')
  const prepared = await prepareRun(suite, ctx(store), undefined, undefined, { index, count: SHARDS })
  key = prepared.key
  const { declared, ...header } = journalHeaderFor(prepared, prepared.createdAt)
  const binding = { tenant, suite: suite.name, key }
  const lines = [encodeHeader(binding, { ...header, leg: index }), encodeDeclared(binding, declared), encodeObserved(binding, observed)]
  for (const id of prepared.mine) lines.push(encodeCase(binding, results.get(id), null))
  const pending = join(store, tenant, 'runs', suite.name, '.pending')
  mkdirSync(pending, { recursive: true })
  writeFileSync(join(pending, `${key}.${index}.jsonl`), Buffer.concat(lines))
  stores.push(store)
}

const mergeMs = []
let filedResults = 0
for (let r = 0; r < reps; r++) {
  const targetDir = join(root, `target-${r}`, '.digline')
  const target = openStore({ store: targetDir })
  gc()
  const t = process.hrtime.bigint()
  const [run] = await planMerge(tenant, stores, target)
  // the CLI and the worker are two processes: the worker does not find the CLI's ranking of the ids kept (ADR 0561)
  splitCases(['another id'], 1)
  const measured = await fileMergedRun(suite, ctx(targetDir), target, { key: run.key, stores: run.stores })
  mergeMs.push(Number(process.hrtime.bigint() - t) / 1e6)
  filedResults = measured.document.results.length
}
if (filedResults !== cases) throw new Error(`the merge filed ${filedResults} results for ${cases} cases`)
reply({ mergeMs, cases, shards: SHARDS, key })
