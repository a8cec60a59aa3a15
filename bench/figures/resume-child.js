// Figure 3 (in its own process): a journal of RECORDS case records written with FileJournal (header,
// declared cases, one observed record, the cases), then
// read, verified and planned by FileResultStore.pending, against a bare JSON.parse of the same lines.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { caseResult, CONFIG_HASH, createdAt, gc, importDist, reply } from './common.js'

const input = JSON.parse(process.argv[2])
const { pkg, dir, records, reps } = input
const { FileJournal } = await importDist(pkg, 'src/store/file/journal.js')
const { FileResultStore } = await importDist(pkg, 'src/store/index.js')
const { leaseOfThisProcess } = await importDist(pkg, 'src/store/live-writer.js')

const root = mkdtempSync(join(dir, 'resume-'))
const tenant = 'bench'
const suite = 'resume'
const header = {
  journal_version: 2,
  created_at: createdAt(0),
  started_at: createdAt(0),
  digline_version: '0.1.0',
  tenant,
  environment: 'local',
  suite,
  config_hash: CONFIG_HASH,
  cases_digest: 'f'.repeat(64),
  artifacts: {},
  target_config: { model: 'geo-v1', temperature: 0 },
  judge_config: { scorers: [{ name: 'exact', config: { trim: false, case_insensitive: false }, pass_at: 0.5 }] },
  record_responses: false,
  git_commit: null,
  lease: leaseOfThisProcess(),
}
// Line 2 of the leg: the cases the run declares (a digest each) and its samples per case.
const digests = {}
for (let i = 0; i < records; i++) digests[caseResult(i).case_id] = i.toString(16).padStart(12, '0')
const opening = { ...header, declared: { samples: 1, digests } }
const observed = { target_model: 'geo-v1-2026-01', judge_models: {} }
const journal = await new FileJournal({ root }).openJournal(opening, 1)
const writeStart = process.hrtime.bigint()
for (let i = 0; i < records; i++) await journal.append({ result: caseResult(i), cause: null, observed, index: i })
const writeMs = Number(process.hrtime.bigint() - writeStart) / 1e6
await journal.close()

const pendingDir = join(root, tenant, 'runs', suite, '.pending')
const legFile = join(pendingDir, readdirSync(pendingDir)[0])
const legBytes = readFileSync(legFile).length
const store = new FileResultStore({ root })

function bare() {
  const text = readFileSync(legFile, 'utf8')
  let parsed = 0
  for (const line of text.split('\n')) {
    if (line === '') continue
    JSON.parse(line.slice(9))
    parsed++
  }
  return parsed
}

const bareMs = []
const pendingMs = []
for (let r = 0; r < reps; r++) {
  gc()
  let t = process.hrtime.bigint()
  const lines = bare()
  bareMs.push(Number(process.hrtime.bigint() - t) / 1e6)
  if (lines !== records + 3) throw new Error(`bare parse saw ${lines} lines, expected ${records + 3}`)
  gc()
  t = process.hrtime.bigint()
  const [pending] = await store.pending(tenant, suite)
  pendingMs.push(Number(process.hrtime.bigint() - t) / 1e6)
  if (pending?.done.size !== records) throw new Error(`pending planned ${pending?.done.size} cases, expected ${records}`)
}

reply({ records, legBytes, writeMs, appendMsPerRecord: writeMs / records, bareMs, pendingMs })
