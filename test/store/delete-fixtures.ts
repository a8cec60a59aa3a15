// Trees of runs for delete tests, built through the real store: run documents, replays in any
// suite of the tenant, journal legs, a promoted baseline and its register line, a name-table file.
// And what every reader says about a key, to hold the contract of deleteRun.
import { mkdirSync, writeFileSync } from 'node:fs'
import { logicalPath } from '../helpers/fault-fs.js'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { baselineOf } from '../../src/document/baseline.js'
import type { RunDocument } from '../../src/document/schema.js'
import { bootId, processStartTime } from '../../src/store/live-writer.js'
import { FileJournal } from '../../src/store/file/journal.js'
import type { FileResultStore } from '../../src/store/file/store.js'
import type { FsLayer } from '../../src/store/file/fs-layer.js'
import { DEFAULT_CONFIG_HASH, keyOf, makeRun } from '../helpers/make-run.js'
import { journalHeader } from './journal-fixtures.js'

export const TENANT = 'acme'

export interface RunSpec {
  suite: string
  /** Distinct per run: the key is made of it. */
  at: number
  configHash?: string
  replayOf?: { suite: string; key: string }
  /** Journal legs to open (1…n); their header names `host` (default this host, this process). */
  legs?: number
  host?: string
  pid?: number
  /** Write the run document (default true). */
  document?: boolean
}

/** created_at values a second apart, from a fixed minute: at = 0 … 3599. */
export function createdAt(at: number): string {
  const minutes = String(Math.floor(at / 60)).padStart(2, '0')
  const seconds = String(at % 60).padStart(2, '0')
  return `2026-03-01T10:${minutes}:${seconds}.000001Z`
}

export function runDoc(spec: RunSpec): RunDocument {
  const doc = makeRun({ tenant: TENANT, suite: spec.suite, createdAt: createdAt(spec.at), configHash: spec.configHash ?? DEFAULT_CONFIG_HASH })
  return spec.replayOf === undefined ? doc : { ...doc, rejudged_from: spec.replayOf.key, rejudged_from_suite: spec.replayOf.suite }
}

/** Files the run as the spec says; returns its key. */
export async function fileRun(store: FileResultStore, spec: RunSpec): Promise<string> {
  const doc = runDoc(spec)
  const journal = new FileJournal({ root: store.root })
  for (let leg = 1; leg <= (spec.legs ?? 0); leg++) {
    const header = journalHeader({
      suite: spec.suite,
      created_at: doc.created_at,
      config_hash: doc.config_hash,
      lease: { host: spec.host ?? hostname(), boot: bootId(), pid: spec.pid ?? process.pid, start_time: processStartTime(spec.pid ?? process.pid) },
    })
    await (await journal.openJournal(header, leg)).close()
  }
  if (spec.document !== false) await store.writeRun(doc)
  return keyOf(doc)
}

/** Makes run KEY of suite the suite's baseline, with its register line, as `digline promote` does. */
export async function promote(store: FileResultStore, suite: string, key: string, replacing: string | null = null): Promise<void> {
  const run = await store.readRun(TENANT, suite, key)
  const promotedAt = '2026-03-02T09:00:00.000001Z'
  await store.writeBaseline(baselineOf(run, key, promotedAt))
  const a = run.aggregates
  await store.appendRegister(TENANT, {
    promoted_at: promotedAt,
    suite,
    key,
    replaced: replacing,
    config_hash: run.config_hash,
    cases: a.cases,
    passed: a.passed,
    failed: a.failed,
    pass_rate: a.pass_rate,
  })
}

export function writeNameTable(root: string): string {
  const dir = join(root, TENANT, 'name-table')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'names.jsonl')
  writeFileSync(file, '{"name":"capitals","id":"s-1"}\n')
  return file
}

export interface Visibility {
  read: boolean
  listed: boolean
  scanned: boolean
  pending: boolean
}

/** Where a key of a suite can still be seen, reader by reader. */
export async function visibility(store: FileResultStore, suite: string, key: string): Promise<Visibility> {
  const read = await store.readRun(TENANT, suite, key).then(
    () => true,
    () => false,
  )
  const listed = (await store.listRuns(TENANT, suite)).runs.some((r) => r.key === key || (r.header !== undefined && keyOf(r.header as RunDocument) === key))
  const scanned = (await store.scanRuns(TENANT, suite)).runs.some((r) => keyOf(r) === key)
  const pending = (await store.pending(TENANT, suite)).some((p) => p.key === key)
  return { read, listed, scanned, pending }
}

export const GONE: Visibility = { read: false, listed: false, scanned: false, pending: false }

/** The contract of deleteRun: none of these runs is returned by any reader of its suite. */
export async function expectGone(store: FileResultStore, refs: readonly { suite: string; key: string }[]): Promise<void> {
  for (const ref of refs) expect(await visibility(store, ref.suite, ref.key), `${ref.suite}/${ref.key}`).toEqual(GONE)
}

/** nodeFsLayer with one hook before each call, to fail or record it. */
export function hookedFs(base: FsLayer, before: (op: keyof FsLayer, path: string | undefined) => void): FsLayer {
  const layer = {} as Record<string, unknown>
  for (const [name, fn] of Object.entries(base) as [keyof FsLayer, (...args: unknown[]) => unknown][]) {
    layer[name] = (...args: unknown[]) => {
      try {
        // the store reaches paths through held-open directories; hooks speak of store paths
        before(name, typeof args[0] === 'string' ? logicalPath(args[0]) : undefined)
      } catch (error) {
        return Promise.reject(error)
      }
      return fn(...args)
    }
  }
  return layer as unknown as FsLayer
}

export function errno(code: string): Error {
  return Object.assign(new Error(`${code} (injected)`), { code })
}
