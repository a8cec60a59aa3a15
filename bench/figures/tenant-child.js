// Figure 4 (in its own process): a tenant of DOCS run documents over SUITES suites, one in ten of
// each suite's documents with about 1 MB of recorded answers. listRuns of one suite through an
// FsLayer that counts the bytes it reads; then, if the store has deleteRun, the delete of a run
// with a three-deep replay chain, here and in a tenant of small documents only.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { caseResult, gc, importDist, reply, runDocument } from './common.js'

const { pkg, dir, docs, suites, reps } = JSON.parse(process.argv[2])
const store = await importDist(pkg, 'src/store/index.js')
const { aggregate } = await importDist(pkg, 'src/driver/aggregate.js')
const { FileResultStore, nodeFsLayer, serializeRun, keyFor } = store

const CASES = 100
const ANSWER = 'a'.repeat(10 * 1024 - 40)
const root = mkdtempSync(join(dir, 'tenant-'))
const suiteName = (i) => `s${String(i % suites).padStart(2, '0')}`

function makeDoc(tenant, suite, index, large, rejudgedFrom) {
  const results = Array.from({ length: CASES }, (_, c) => caseResult(c, large ? { output: `${ANSWER}-${index}-${c}` } : {}))
  return runDocument({ tenant, suite, index, results, aggregate, recordResponses: large, rejudgedFrom })
}

function writeDoc(doc) {
  const dirOf = join(root, doc.tenant, 'runs', doc.suite)
  mkdirSync(dirOf, { recursive: true })
  const key = keyFor(doc.created_at, doc.config_hash)
  const text = serializeRun(doc)
  writeFileSync(join(dirOf, `${key}.json`), text)
  return { key, bytes: Buffer.byteLength(text) }
}

function fillTenant(tenant, largeShare) {
  let bytes = 0
  let largeBytes = 0
  let large = 0
  for (let i = 0; i < docs; i++) {
    const isLarge = largeShare && Math.floor(i / suites) % 10 === 0
    const w = writeDoc(makeDoc(tenant, suiteName(i), i, isLarge))
    bytes += w.bytes
    if (isLarge) {
      large++
      largeBytes += w.bytes
    }
  }
  return { docs, bytes, large, meanLargeBytes: large === 0 ? 0 : largeBytes / large }
}

function countingFs() {
  const counter = { bytes: 0, files: new Map() }
  // Keyed by file name: the store may reach a file through /proc/self/fd/N/<name> (beneath-root.ts),
  // and every run document of a tenant here has its own key, so the name is the document.
  const note = (path, n) => {
    counter.bytes += n
    const name = basename(path)
    counter.files.set(name, (counter.files.get(name) ?? 0) + n)
  }
  const fs = {
    ...nodeFsLayer,
    async readPrefix(path, max) {
      const r = await nodeFsLayer.readPrefix(path, max)
      note(path, r.bytes.length)
      return r
    },
    async readFile(path) {
      const r = await nodeFsLayer.readFile(path)
      note(path, r.length)
      return r
    },
  }
  return { fs, counter }
}

const setupStart = Date.now()
const mixed = fillTenant('bench', true)
const setupMs = Date.now() - setupStart

// The same layer with no symlink guard: beneathRoot (src/store/file/beneath-root.ts) passes a layer
// marked as already wrapped through, so the store reaches every path directly. Only for the side by
// side below; a build older than withoutSymlinkGuard is marked the same way by hand.
const beneath = await importDist(pkg, 'src/store/file/beneath-root.js').catch(() => ({}))
const unguarded = beneath.withoutSymlinkGuard ?? ((fs) => ({ ...fs, [Symbol.for('digline.beneathRoot')]: true }))

// listRuns of one suite, guarded and unguarded in turn (the first side alternates), several times
// (the page cache is warm after the first).
const listSuite = suiteName(0)
const LIST_REPS = Math.max(reps, 9)
const listMs = []
const unguardedMs = []
let listing
let listCounter
// The first listings of each side run code not yet compiled; they warm both sides and are not counted.
const LIST_WARMUP = 3
for (let r = -LIST_WARMUP; r < LIST_REPS; r++) {
  for (const guard of r % 2 === 0 ? [true, false] : [false, true]) {
    gc()
    const { fs, counter } = countingFs()
    const s = new FileResultStore({ root, fs: guard ? fs : unguarded(fs) })
    const t = process.hrtime.bigint()
    const got = await s.listRuns('bench', listSuite)
    const ms = Number(process.hrtime.bigint() - t) / 1e6
    if (r < 0) continue
    if (guard) {
      listMs.push(ms)
      listing = got
      listCounter = counter
    } else {
      unguardedMs.push(ms)
      if (listing !== undefined && got.runs.length !== listing.runs.length) throw new Error('the unguarded listing found other runs')
    }
  }
}
const listed = listing.runs.filter((run) => run.refusal === undefined).length
const refused = listing.runs.length - listed
const perDoc = [...listCounter.files.values()]

// The delete, only where the store has one.
const hasDelete = typeof FileResultStore.prototype.deleteRun === 'function'
let del = { measured: false, why: 'not measured: delete not landed' }
if (hasDelete) {
  const small = fillTenant('small', false)
  del = { measured: true, chainDepth: 3, tenants: {} }
  const acc = { bench: { times: [], bytes: 0, maxBytes: 0, removed: undefined }, small: { times: [], bytes: 0, maxBytes: 0, removed: undefined } }
  for (let r = 0; r < reps; r++) {
    // Alternate the tenants, so a drift in the machine's load hits both alike.
    const order =
      r % 2 === 0
        ? [
            ['bench', true],
            ['small', false],
          ]
        : [
            ['small', false],
            ['bench', true],
          ]
    for (const [tenant, largeChain] of order) {
      // A run in suite s01 and three replays chained to it through rejudged_from, across suites.
      let index = 1_000_000 + r * 10
      let prev = { suite: suiteName(1), key: writeDoc(makeDoc(tenant, suiteName(1), index, largeChain)).key }
      const asked = prev
      for (let depth = 1; depth <= 3; depth++) {
        index++
        const suite = suiteName(1 + depth)
        prev = { suite, key: writeDoc(makeDoc(tenant, suite, index, largeChain, prev)).key }
      }
      gc()
      const { fs, counter } = countingFs()
      const s = new FileResultStore({ root, fs })
      const t = process.hrtime.bigint()
      const removed = await s.deleteRun(tenant, asked.suite, asked.key)
      const a = acc[tenant]
      a.times.push(Number(process.hrtime.bigint() - t) / 1e6)
      a.bytes = counter.bytes
      a.maxBytes = Math.max(0, ...counter.files.values())
      a.removed = removed
      if ((removed?.replays?.length ?? 0) !== 3) throw new Error(`the delete removed ${removed?.replays?.length} replays, expected 3: ${JSON.stringify(removed)}`)
    }
  }
  for (const [tenant, a] of Object.entries(acc)) {
    del.tenants[tenant] = { docs: docs + 4, ms: a.times, bytesRead: a.bytes, bytesPerDoc: a.bytes / (docs + 4), maxBytesPerDoc: a.maxBytes, replays: a.removed.replays.length }
  }
  del.smallTenant = small
}

reply({
  docs,
  suites,
  tenant: mixed,
  setupMs,
  list: {
    suite: listSuite,
    docs: listing.runs.length,
    listed,
    refused,
    ms: listMs,
    unguardedMs,
    bytesRead: listCounter.bytes,
    meanBytesPerDoc: listCounter.bytes / listing.runs.length,
    maxBytesPerDoc: Math.max(...perDoc),
  },
  delete: del,
})
