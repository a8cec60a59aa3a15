// Reading a run's journal: every leg in order, each line verified. The unterminated fragment after
// a leg's last newline is a torn tail (a write the process was killed in) and is dropped; any other
// bad line refuses the whole journal by name. Reading never changes a byte on disk.
import { dirname, join } from 'node:path'
import { CorruptJournalError } from '../errors.js'
import { isDiglineError, type DiglineErrorData } from '../../errors/base.js'
import { PathRefusedError } from '../../suite/errors.js'
import { RunPathOccupiedError } from './errors.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import { readRunHeader } from './header-reader.js'
import { isProvablyEmpty, JournalPlanner, type JournalPlace, type LegBytes } from '../journal-planner.js'
import type { Pending, PendingCases } from '../journal.js'
import type { StorePaths } from './paths.js'
import { assertFiledUnder, unreadableRun } from '../run-checks.js'

export { emptyObserved, isProvablyEmpty, JournalPlanner, type JournalPlace, type LegBytes } from '../journal-planner.js'

function legsPattern(file: string, key: string): string {
  return join(dirname(file), `${key}.*.jsonl`)
}

/** Reads the legs' bytes, never through a symlink; a leg that vanished meanwhile (completed) is skipped. */
export async function readLegs(fs: FsLayer, paths: StorePaths, place: JournalPlace, legs: readonly number[]): Promise<LegBytes[]> {
  const out: LegBytes[] = []
  for (const leg of legs) {
    const file = paths.journalLegFile(place.tenant, place.suite, place.key, leg)
    let bytes: Buffer
    try {
      const stats = await fs.lstat(file)
      if (stats.isSymbolicLink()) {
        throw new PathRefusedError(`refused the journal leg ${file}: it is a symlink, and the store never follows a path out of itself`, `remove the symlink ${file}`)
      }
      if (!stats.isFile()) throw unreadableLeg(place, file, 'is not a regular file')
      bytes = await fs.readFile(file)
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') continue
      if (isDiglineError(error)) throw error
      throw unreadableLeg(place, file, `cannot be read (${errnoOf(error) ?? (error instanceof Error ? error.message : String(error))})`)
    }
    out.push({ leg, file, bytes })
  }
  return out
}

function unreadableLeg(place: JournalPlace, file: string, why: string): CorruptJournalError {
  return new CorruptJournalError(
    `refused the journal of run ${place.key} (suite ${place.suite}, tenant ${place.tenant}): ${file} ${why}; the journal is left on disk as it is`,
    `inspect ${file}; a journal is never repaired: to give up the cases it holds, remove ${legsPattern(file, place.key)}, then run the suite again`,
  )
}

/**
 * A journal as a survey sees it: a refused journal is described by `refusal` instead of thrown, and
 * holds no cases. `strict` throws the refusal instead (for a caller about to delete it).
 */
export async function readJournal(fs: FsLayer, paths: StorePaths, place: JournalPlace, legs: readonly number[], strict = false): Promise<Pending & { emptyLegs: LegBytes[] }> {
  const { planner, refusal, ...base } = await foldJournal(fs, paths, place, legs, strict, false)
  return planner.pending(base, refusal)
}

/** readJournal for a survey of the cases journaled: each case record read for its id alone (ADR 0562). */
export async function readJournalCases(fs: FsLayer, paths: StorePaths, place: JournalPlace, legs: readonly number[]): Promise<PendingCases & { emptyLegs: LegBytes[] }> {
  const { planner, refusal, ...base } = await foldJournal(fs, paths, place, legs, false, true)
  return planner.pendingCases(base, refusal)
}

async function foldJournal(fs: FsLayer, paths: StorePaths, place: JournalPlace, legs: readonly number[], strict: boolean, casesOnly: boolean) {
  const planner = new JournalPlanner(place, undefined, casesOnly)
  let refusal: DiglineErrorData | undefined
  let onDisk: readonly number[] = legs
  let emptyLegs: LegBytes[] = []
  let finished = false
  try {
    const found = await readLegs(fs, paths, place, legs)
    emptyLegs = found.filter((l) => isProvablyEmpty(l.bytes))
    onDisk = found.filter((l) => !isProvablyEmpty(l.bytes)).map((l) => l.leg)
    planner.addLegs(found)
  } catch (error) {
    if (strict || !isDiglineError(error)) throw error
    refusal = error.toData()
  }
  try {
    finished = await documentOfRunExists(fs, paths, place)
  } catch (error) {
    if (strict || !isDiglineError(error)) throw error
    refusal ??= error.toData()
  }
  return { ...place, header: planner.header, legs: [...onDisk], leases: planner.leases, finished, emptyLegs, planner, refusal }
}

/**
 * Whether the run's document is written: false when nothing is at its path, true when a readable
 * document of this same run (tenant, suite and key) is; anything else there is refused by name,
 * and the journal (the only copy of its cases) is kept.
 */
export async function documentOfRunExists(fs: FsLayer, paths: StorePaths, place: JournalPlace): Promise<boolean> {
  const file = paths.runFile(place.tenant, place.suite, place.key)
  try {
    const stats = await fs.lstat(file)
    if (!stats.isFile()) throw unreadableRun(file, 'it is not a regular file')
    const { header } = await readRunHeader(fs, file)
    assertFiledUnder(header, { ...place, fileKey: place.key, file })
    return true
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return false
    throw notTheRunsDocument(place, file, error)
  }
}

function notTheRunsDocument(place: JournalPlace, file: string, error: unknown): RunPathOccupiedError {
  const why = isDiglineError(error) ? error.message : `it cannot be read (${errnoOf(error) ?? (error instanceof Error ? error.message : String(error))})`
  return new RunPathOccupiedError(
    `kept the journal of run ${place.key} (suite ${place.suite}, tenant ${place.tenant}): what is at its document's path is not run ${place.key}'s document, so the run is not finished and the journal is not removed (${why})`,
    `move ${file} aside (it is not run ${place.key}), then \`digline run --resume ${place.key} --suite ${place.suite}\` finishes the run from its journal`,
    ['finished'],
  )
}
