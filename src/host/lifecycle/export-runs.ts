// `digline export` (SPEC §10, docs/adr/0047): the run documents of a suite as the store files them,
// byte for byte, written as `<out>/<suite>/<key>.json`. Every file is checked before the first
// write: one already there with other content refuses the whole export.
import { randomUUID } from 'node:crypto'
import { lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { serializeRun } from '../../document/serialize.js'
import { ExportFileOccupiedError, ExportWriteError } from './errors.js'
import { type DiglineErrorData } from '../../errors/base.js'
import type { Store } from '../../store/contract.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { keyFor } from '../../suite/keys.js'
import { resolveRunKey } from '../launch/run-key.js'

export interface ExportedRun {
  suite: string
  key: string
  /** The document's bytes as the store gives them back (what `digline show --json` prints, less its `key`). */
  text: string
}

export interface RunsToExport {
  tenant: string
  suite: string
  runs: ExportedRun[]
  /** Documents of the suite that could not be read: not exported, named. */
  refused: { key: string | undefined; refusal: DiglineErrorData }[]
}

/** One run (`run` is a key or latest), or every readable run of the suite. */
export async function runsToExport(store: Store, tenant: string, suite: string, run: string | undefined): Promise<RunsToExport> {
  assertSafeSegment('tenant', tenant)
  assertSafeSegment('suite', suite)
  if (run !== undefined) {
    const key = await resolveRunKey(store, tenant, suite, run)
    return { tenant, suite, runs: [{ suite, key, text: serializeRun(await store.readRun(tenant, suite, key)) }], refused: [] }
  }
  const scan = await store.scanRuns(tenant, suite)
  return { tenant, suite, runs: scan.runs.map((doc) => ({ suite, key: keyFor(doc.created_at, doc.config_hash), text: serializeRun(doc) })), refused: scan.refused }
}

export interface ExportedFiles {
  written: string[]
  /** Files already there with the same bytes: left as they were. */
  unchanged: string[]
}

/** What is at `file` already: nothing, these very bytes, or something else. */
async function occupant(file: string, text: string): Promise<'absent' | 'same' | 'other'> {
  try {
    if (!(await lstat(file)).isFile()) return 'other'
    return (await readFile(file, 'utf8')) === text ? 'same' : 'other'
  } catch (error) {
    // A path that cannot be looked at (a file where a directory should be, no permission) is in the way too.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'absent' : 'other'
  }
}

/** Writes the runs under `outDir`; plans every file first, so a refusal writes nothing. */
export async function writeExport(outDir: string, cwd: string, runs: readonly ExportedRun[]): Promise<ExportedFiles> {
  const root = resolve(cwd, outDir)
  const plan: { file: string; dir: string; text: string; state: 'absent' | 'same' }[] = []
  for (const run of runs) {
    const dir = join(root, run.suite)
    const file = join(dir, `${run.key}.json`)
    const state = await occupant(file, run.text)
    if (state === 'other') {
      throw new ExportFileOccupiedError(
        `refused to export run ${run.key} of suite ${run.suite}: ${file} is in the way (it exists, or cannot be looked at, and does not hold these bytes); nothing was exported`,
        `digline export --suite ${run.suite} --out DIR with an empty DIR, or move ${file} aside`,
        ['--out'],
      )
    }
    plan.push({ file, dir, text: run.text, state })
  }
  const out: ExportedFiles = { written: [], unchanged: [] }
  for (const item of plan) {
    if (item.state === 'same') {
      out.unchanged.push(item.file)
      continue
    }
    const temp = `${item.file}.${randomUUID()}.tmp`
    try {
      await mkdir(item.dir, { recursive: true })
      await writeFile(temp, item.text, { flag: 'wx' })
      await rename(temp, item.file)
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined)
      const code = (error as NodeJS.ErrnoException).code ?? 'an I/O error'
      throw new ExportWriteError(
        `digline export could not write ${item.file} (${code}); ${out.written.length} file(s) were written before it, and the store was only read`,
        'Fix the directory or free space, or export into another one with `--out DIR`, then run `digline export` again.',
        ['--out'],
      )
    }
    out.written.push(item.file)
  }
  return out
}
