// The lifecycle use cases in process, against a real file store in a temp directory: what only the
// host decides (an import's plan, a live writer, a replay of a removed run) and that each refusal
// leaves the store as it was. The CLI wiring is held by test/e2e/retire.test.ts and export-import.test.ts.
import { spawn, type ChildProcess } from 'node:child_process'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serializeRun } from '../../../src/document/serialize.js'
import { ExportWriteError, ImportConflictError, SuiteRetiredError } from '../../../src/host/lifecycle/errors.js'
import { LiveRunError, RunRemovedError, TenantMismatchError, UnreadableRunError } from '../../../src/store/errors.js'
import { importRuns } from '../../../src/host/lifecycle/import-runs.js'
import { describeRetirement, retireSuite } from '../../../src/host/lifecycle/retire-suite.js'
import { runsToExport, writeExport } from '../../../src/host/lifecycle/export-runs.js'
import { createdAtSeconds, keyOf, makeRun } from '../../helpers/make-run.js'
import { refusedWithoutChange, type ContractSubject } from '../../store/contract/harness.js'
import { fileRun, runDoc } from '../../store/delete-fixtures.js'
import { makeTempStore, type TempStore } from '../../store/temp-store.js'
import { mountTmpfs } from '../../helpers/tmpfs.js'

let temp: TempStore
let subject: ContractSubject
let given: string
let writer: ChildProcess | undefined
beforeEach(() => {
  temp = makeTempStore()
  subject = { store: temp.store, locator: temp.root, snapshot: () => temp.snapshot(), cleanup: () => temp.cleanup() }
  given = mkdtempSync(join(tmpdir(), 'digline-import-'))
})
afterEach(() => {
  writer?.kill('SIGKILL')
  writer = undefined
  temp.cleanup()
  rmSync(given, { recursive: true, force: true })
})

/** A live process of this host, whose pid a planted journal leg names as its writer. */
function liveWriterPid(): number {
  writer = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' })
  return writer.pid!
}

/** Writes documents as files outside the store, the way export leaves them. */
function files(...texts: string[]): string[] {
  const dir = mkdtempSync(join(given, 'batch-'))
  return texts.map((text, i) => {
    const file = join(dir, `doc-${i}.json`)
    writeFileSync(file, text)
    return file
  })
}

/** The files are written before the refusal's snapshot is taken. */
function refusedImport(paths: string[], expected: Parameters<typeof refusedWithoutChange>[2]) {
  return refusedWithoutChange(subject, () => importRuns(temp.store, 'acme', paths, given), expected)
}

describe('import plans before it writes', () => {
  it('files nothing when any file of the batch is refused, whatever its place in the batch', async () => {
    const [a, b] = createdAtSeconds(2)
    const good = serializeRun(makeRun({ createdAt: a }))
    const other = serializeRun(makeRun({ tenant: 'globex', createdAt: b }))
    await refusedImport(files(good, other), TenantMismatchError)
    await refusedImport(files(good, '{"schema_version": 1}'), UnreadableRunError)
    const run = makeRun({ createdAt: a })
    const twin = serializeRun({ ...run, metadata: { other: true } })
    await refusedImport(files(good, twin), ImportConflictError)
    expect((await temp.store.listRuns('acme', 'capitals')).runs).toEqual([])
  })

  it('refuses a replay whose source run was removed, and a run of a retired suite', async () => {
    const source = await fileRun(temp.store, { suite: 's', at: 1 })
    const replay = runDoc({ suite: 't', at: 2, replayOf: { suite: 's', key: source } })
    await temp.store.deleteRun('acme', 's', source)
    await refusedImport(files(serializeRun(replay)), RunRemovedError)
    await retireSuite(temp.store, 'acme', 'u')
    const retired = await refusedImport(files(serializeRun(runDoc({ suite: 'u', at: 3 }))), SuiteRetiredError)
    expect(retired.message).toMatch(/suite u of tenant acme was retired at \S+Z/)
  })

  it('refuses a key whose run a live process on this host is writing', async () => {
    await fileRun(temp.store, { suite: 'capitals', at: 1, legs: 1, document: false, pid: liveWriterPid() })
    const doc = runDoc({ suite: 'capitals', at: 1 })
    await refusedImport(files(serializeRun(doc)), LiveRunError)
  })

  it('files what is new, leaves what is already there, and reads back the same bytes', async () => {
    const [a, b] = createdAtSeconds(2)
    const first = makeRun({ createdAt: a })
    await temp.store.writeRun(first)
    const second = makeRun({ createdAt: b })
    const imported = await importRuns(temp.store, 'acme', files(serializeRun(first), serializeRun(second), serializeRun(second)), given)
    expect(imported.map((r) => r.outcome)).toEqual(['already', 'filed', 'duplicate'])
    expect(serializeRun(await temp.store.readRun('acme', 'capitals', keyOf(second)))).toBe(serializeRun(second))
  })
})

describe('retire', () => {
  it('is refused while a journal of the suite is held by a live process here, and retires once a dead one is left', async () => {
    await fileRun(temp.store, { suite: 'capitals', at: 1, legs: 1, document: false, pid: liveWriterPid() })
    await refusedWithoutChange(subject, () => retireSuite(temp.store, 'acme', 'capitals'), LiveRunError)
    await fileRun(temp.store, { suite: 'rivers', at: 1, legs: 1, document: false, host: `${hostname()}-elsewhere` })
    const retired = await retireSuite(temp.store, 'acme', 'rivers')
    expect(retired).toMatchObject({ already: false, runs: 0, baseline: null, pending: [keyOf(runDoc({ suite: 'rivers', at: 1 }))] })
    expect((await retireSuite(temp.store, 'acme', 'rivers')).already).toBe(true)
  })

  it('is not stopped by a baseline that cannot be read, which it keeps byte for byte and names', async () => {
    mkdirSync(join(temp.root, 'acme', 'baselines'), { recursive: true })
    writeFileSync(join(temp.root, 'acme', 'baselines', 'capitals.json'), '{ not json')
    const retired = await retireSuite(temp.store, 'acme', 'capitals')
    expect(retired).toMatchObject({ baseline: null, baselineRefusal: 'UnreadableBaselineError' })
    expect(describeRetirement(retired)[1]).toContain('its baseline (which cannot be read: UnreadableBaselineError)')
    expect(readFileSync(join(temp.root, 'acme', 'baselines', 'capitals.json'), 'utf8')).toBe('{ not json')
  })
})

describe('export', () => {
  it('gives back the filed bytes, and refuses a file in the way before writing any', async () => {
    const [a, b] = createdAtSeconds(2)
    await temp.store.writeRun(makeRun({ createdAt: a }))
    await temp.store.writeRun(makeRun({ createdAt: b }))
    const selected = await runsToExport(temp.store, 'acme', 'capitals', undefined)
    expect(selected.runs.map((r) => r.text)).toEqual([serializeRun(makeRun({ createdAt: a })), serializeRun(makeRun({ createdAt: b }))])
    const out = join(temp.dir, 'out')
    const blocked = join(out, 'capitals', `${selected.runs[1]!.key}.json`)
    mkdirSync(join(out, 'capitals'), { recursive: true })
    writeFileSync(blocked, 'mine\n')
    await expect(writeExport(out, temp.dir, selected.runs)).rejects.toThrow(/is in the way/)
    expect(existsSync(join(out, 'capitals', `${selected.runs[0]!.key}.json`))).toBe(false)
  })

  it('names a write it could not make (a full disk) as ExportWriteError, exit 2, leaving no temp file', async () => {
    const createdAt = createdAtSeconds(3)
    for (const at of createdAt) await temp.store.writeRun(makeRun({ createdAt: at, results: 60, reasonLength: 200 }))
    const selected = await runsToExport(temp.store, 'acme', 'capitals', undefined)
    const disk = mountTmpfs('8k')
    try {
      const error = await writeExport(disk.dir, temp.dir, selected.runs).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(ExportWriteError)
      expect((error as ExportWriteError).exitCode).toBe(2)
      expect((error as Error).message).toMatch(/could not write .*ENOSPC/)
      const left = readdirSync(join(disk.dir, 'capitals'))
      expect(left.filter((name) => name.endsWith('.tmp'))).toEqual([])
    } finally {
      disk.unmount()
    }
  })
})
