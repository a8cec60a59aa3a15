// Figure 3 (in its own process): a journal of RECORDS case records written with FileJournal (header,
// declared cases, one observed record, the cases), then
// read, verified and planned by FileResultStore.pending, against a bare JSON.parse of the same lines
// and against the least a checked plan does (checkedFloor).
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { crc32 } from 'node:zlib'
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

/**
 * The least a checked resume plan does (SPEC §6): the leg read once, every line's CRC-32 computed
 * over its bytes, every line parsed, and every case's result held by its id. It skips the binding of
 * the checksum to the run, the record's shape and the declared cases, which the store checks too.
 */
function checkedFloor() {
  const bytes = readFileSync(legFile)
  const text = bytes.toString('utf8')
  if (text.length !== bytes.length) throw new Error('the floor reads an ASCII leg, as the bench writes it')
  const done = new Map()
  let mismatches = 0
  for (let start = 0; ;) {
    const end = text.indexOf('\n', start)
    if (end < 0) break
    if (crc32(bytes.subarray(start + 9, end)) !== parseInt(text.slice(start, start + 8), 16)) mismatches++
    const record = JSON.parse(text.slice(start + 9, end))
    if (record.kind === 'case') done.set(record.case.case_id, record.case)
    start = end + 1
  }
  // Every line carries the run's binding in its checksum, so a bare CRC-32 matches none of them.
  if (mismatches !== records + 3) throw new Error(`the floor's CRC-32 matched ${records + 3 - mismatches} lines, expected none`)
  return done.size
}

// The first of each runs code not yet compiled, as a resume's one call in a fresh process does: it is
// kept apart (first), and the medians are of the calls after it.
const first = {}
const bareMs = []
const floorMs = []
const pendingMs = []
for (let r = -1; r < reps; r++) {
  gc()
  let t = process.hrtime.bigint()
  const lines = bare()
  const bareCallMs = Number(process.hrtime.bigint() - t) / 1e6
  if (lines !== records + 3) throw new Error(`bare parse saw ${lines} lines, expected ${records + 3}`)
  gc()
  t = process.hrtime.bigint()
  const held = checkedFloor()
  const floorCallMs = Number(process.hrtime.bigint() - t) / 1e6
  if (held !== records) throw new Error(`the floor held ${held} cases, expected ${records}`)
  gc()
  t = process.hrtime.bigint()
  const [pending] = await store.pending(tenant, suite)
  const pendingCallMs = Number(process.hrtime.bigint() - t) / 1e6
  if (pending?.done.size !== records) throw new Error(`pending planned ${pending?.done.size} cases, expected ${records}`)
  if (r < 0) Object.assign(first, { bareMs: bareCallMs, floorMs: floorCallMs, pendingMs: pendingCallMs })
  else {
    bareMs.push(bareCallMs)
    floorMs.push(floorCallMs)
    pendingMs.push(pendingCallMs)
  }
}

reply({ records, legBytes, writeMs, appendMsPerRecord: writeMs / records, first, bareMs, floorMs, pendingMs })
