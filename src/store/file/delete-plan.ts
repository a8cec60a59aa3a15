// The read-only half of a delete (ADR 0044 §3, docs/adr/0014): every refusal is raised here, in
// this order, before anything is written or removed: the names, the baseline, the run asked for and
// its legs, every runs directory of the tenant, the live writers, and every path on the plan.
import type { Stats } from 'node:fs'
import { DirectoryUnreadableError } from './errors.js'
import { isDiglineError } from '../../errors/base.js'
import { LiveRunError, PromotedRunError, type StoreWriteError } from '../errors.js'
import { PathRefusedError } from '../../suite/errors.js'
import { keyFor } from '../../suite/keys.js'
import { isSafeSegment } from '../../suite/safe-segment.js'
import { isTempName, storeWriteError } from './atomic-write.js'
import { holdingDirectory } from './beneath-root.js'
import type { SupportsBaselines } from '../baselines.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import { parseLegName } from '../journal-format.js'
import { peekLegHeader } from './leg-peek.js'
import { readLightHeader, type LightHeader } from './light-header.js'
import { describeWriter, leaseHolds, liveLeaseOf } from '../live-writer.js'
import type { LegLease } from '../journal.js'
import { mapLimited } from '../map-limited.js'
import { assertSafeSegment, type StorePaths } from './paths.js'
import type { RunRef } from '../removal.js'
import { assertFiledUnder, unreadableRun } from '../run-checks.js'

const SCAN_CONCURRENCY = 16

export interface PlannedRun {
  ref: RunRef
  /** A replay's document as the scan found it; the run asked for is removed by name instead. */
  file: string | undefined
  /** Other files of the run's own suite holding the run itself under a wrong name: removed with it. */
  copies: string[]
  created_at: string | null
  /** Legs found by the plan (the removal lists them again, by name). */
  legs: number
  document: boolean
  replayOf: { suite: string; key: string } | null
}

export interface ScannedDoc {
  /** The suite directory it is filed in. */
  suite: string
  file: string
  header: LightHeader
}

export interface DeletePlan {
  target: PlannedRun
  /** In the order they are removed: leaves first. */
  replays: PlannedRun[]
  unread: number
  docs: ScannedDoc[]
  /** `<suite>/<file name>` of every document looked at, so a second look reads only new ones. */
  seen: Set<string>
}

export type ScanMode = 'plan' | 'second look'

export class DeletePlanner {
  constructor(
    private readonly paths: StorePaths,
    private readonly fs: FsLayer,
    private readonly baselines: SupportsBaselines,
  ) {}

  async plan(ref: RunRef): Promise<DeletePlan> {
    assertSafeSegment('tenant', ref.tenant)
    assertSafeSegment('suite', ref.suite)
    assertSafeSegment('key', ref.key)
    await this.assertNotUnderBaseline(ref)
    const target = await this.planTarget(ref)
    const seen = new Set([`${ref.suite}/${ref.key}.json`])
    const scan = await this.scanTenant(ref, seen, 'plan')
    const plan: DeletePlan = { target, replays: [], unread: scan.unread, docs: scan.docs, seen }
    plan.replays = await this.chain(plan, 'plan')
    withCopies(plan)
    for (const run of [...plan.replays, target]) await this.assertNoLiveWriter(run, ref)
    for (const run of [...plan.replays, target]) await this.assertInside(run)
    return plan
  }

  /** The baseline of the suite, read as promotion reads it; a baseline promoted from KEY refuses. */
  async assertNotUnderBaseline(ref: RunRef): Promise<void> {
    const baseline = await this.baselines.readBaseline(ref.tenant, ref.suite)
    if (baseline === undefined || keyFor(baseline.created_at, baseline.config_hash) !== ref.key) return
    throw new PromotedRunError(
      `refused to delete run ${ref.key} of suite ${ref.suite} (tenant ${ref.tenant}): the suite's baseline ${this.baselines.baselineLocation(ref.tenant, ref.suite)} was promoted from it (promoted at ${baseline.promoted_at}), whether or not the run is still on disk. A delete never removes the run under a baseline; nothing was removed`,
      `promote another run first: \`digline promote --suite ${ref.suite} --run NEW_KEY --replacing ${ref.key}\`, then repeat \`digline delete --suite ${ref.suite} --run ${ref.key}\``,
      ['key'],
    )
  }

  /** Reaches the replays filed since the plan: the delete's second look, after its records are written. */
  async secondLook(plan: DeletePlan): Promise<PlannedRun[]> {
    const ref = plan.target.ref
    const scan = await this.scanTenant(ref, plan.seen, 'second look')
    plan.unread += scan.unread
    plan.docs.push(...scan.docs)
    const known = new Set(plan.replays.map((r) => r.file))
    plan.replays = await this.chain(plan, 'second look')
    withCopies(plan)
    return plan.replays.filter((r) => !known.has(r.file))
  }

  private async planTarget(ref: RunRef): Promise<PlannedRun> {
    const file = this.paths.runFile(ref.tenant, ref.suite, ref.key)
    await this.inside(file)
    let header = await this.targetHeader(ref, file)
    const legs = await this.legsOf(ref.tenant, ref.suite, ref.key, 'plan')
    // A finishing run publishes its document, then drops its legs: with neither seen, look once more.
    if (header === undefined && legs.length === 0) header = await this.targetHeader(ref, file)
    const fromLeg = header === undefined ? await this.createdAtFromLegs(ref, legs) : undefined
    const replayOf = header?.rejudged_from === undefined ? null : { suite: header.rejudged_from_suite ?? ref.suite, key: header.rejudged_from }
    return { ref, file: undefined, copies: [], created_at: header?.created_at ?? fromLeg ?? null, legs: legs.length, document: header !== undefined, replayOf }
  }

  /** The document under KEY, shown to be run KEY of this tenant and suite; undefined when there is none. */
  private async targetHeader(ref: RunRef, file: string): Promise<LightHeader | undefined> {
    const stats = await this.lstat(file, 'plan')
    if (stats === undefined) return undefined
    if (stats.isSymbolicLink()) throw symlinkRefused(file)
    if (!stats.isFile()) throw unreadableRun(file, `it is not a regular file, so it cannot be shown to be run ${ref.key}; nothing was removed`)
    let header: LightHeader
    try {
      header = await readLightHeader(this.fs, file)
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined
      if (isDiglineError(error)) throw error
      throw unreadableRun(file, `it cannot be read (${errnoOf(error) ?? String(error)}); nothing was removed`)
    }
    assertFiledUnder({ ...header, tenant: header.tenant ?? ref.tenant, suite: header.suite ?? ref.suite }, { ...ref, fileKey: ref.key, file })
    return header
  }

  private async createdAtFromLegs(ref: RunRef, legs: readonly number[]): Promise<string | undefined> {
    for (const leg of legs) {
      const peek = await peekLegHeader(this.fs, this.paths.journalLegFile(ref.tenant, ref.suite, ref.key, leg), ref)
      if (peek !== undefined) return peek.created_at
    }
    return undefined
  }

  /** The replays of the plan's target through the documents read, breadth first, returned leaves first. */
  private async chain(plan: DeletePlan, mode: ScanMode): Promise<PlannedRun[]> {
    const byParent = new Map<string, ScannedDoc[]>()
    for (const doc of plan.docs) {
      const parent = doc.header.rejudged_from
      if (parent !== undefined) byParent.set(parent, [...(byParent.get(parent) ?? []), doc])
    }
    const { ref } = plan.target
    const found: { doc: ScannedDoc; parentSuite: string }[] = []
    const visited = new Set<string>()
    const queue = [{ key: ref.key, suites: new Set([ref.suite]), suite: ref.suite }]
    for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
      for (const doc of byParent.get(node.key) ?? []) {
        const named = doc.header.rejudged_from_suite
        if (visited.has(doc.file) || (named !== undefined && !node.suites.has(named))) continue
        visited.add(doc.file)
        found.push({ doc, parentSuite: named ?? node.suite })
        queue.push({ key: doc.header.key, suites: new Set([doc.suite, doc.header.suite ?? doc.suite]), suite: doc.suite })
      }
    }
    const replays: PlannedRun[] = []
    for (const { doc, parentSuite } of found.reverse()) {
      const replayRef = { tenant: ref.tenant, suite: doc.suite, key: doc.header.key }
      const legs = isSafeSegment(replayRef.key) ? await this.legsOf(ref.tenant, doc.suite, replayRef.key, mode) : []
      replays.push({
        ref: replayRef,
        file: doc.file,
        copies: [],
        created_at: doc.header.created_at,
        legs: legs.length,
        document: true,
        replayOf: { suite: parentSuite, key: doc.header.rejudged_from! },
      })
    }
    return replays
  }

  private async scanTenant(ref: RunRef, seen: Set<string>, mode: ScanMode): Promise<{ docs: ScannedDoc[]; unread: number }> {
    const runs = this.paths.runsDir(ref.tenant)
    await this.inside(runs)
    // The runs directory, then each suite's, is held open while it is read (ADR 0088): a document is
    // reached from its suite's directory, never walked to from the store root.
    const { bySuite, unread } = await holdingDirectory(this.fs, runs, (fs) => this.candidates(ref, seen, mode, fs))
    const docs: ScannedDoc[] = []
    let unreadable = unread
    for (const [suite, fileKeys] of bySuite) {
      const read = await holdingDirectory(this.fs, this.paths.suiteRunsDir(ref.tenant, suite), (fs) =>
        mapLimited(fileKeys, SCAN_CONCURRENCY, async (fileKey) => {
          const file = this.paths.runFile(ref.tenant, suite, fileKey)
          try {
            const stats = await fs.lstat(file)
            // A link is counted and never opened: it may lead out of the store.
            if (!stats.isFile()) return 'unread' as const
            return { suite, file, header: await readLightHeader(fs, file) }
          } catch (error) {
            return errnoOf(error) === 'ENOENT' ? ('gone' as const) : ('unread' as const)
          }
        }),
      )
      for (const r of read) {
        if (typeof r === 'object') docs.push(r)
        else if (r === 'unread') unreadable += 1
      }
    }
    return { docs, unread: unreadable }
  }

  /** The documents of every suite of the tenant not seen yet, by suite in name order; names that are not keys are counted, never opened. */
  private async candidates(ref: RunRef, seen: Set<string>, mode: ScanMode, fs: FsLayer): Promise<{ bySuite: Map<string, string[]>; unread: number }> {
    const runs = this.paths.runsDir(ref.tenant)
    const bySuite = new Map<string, string[]>()
    let unread = 0
    for (const suite of (await this.list(runs, ref, mode, fs)).sort()) {
      if (!isSafeSegment(suite)) continue
      const dir = this.paths.suiteRunsDir(ref.tenant, suite)
      const stats = await this.lstat(dir, mode, fs)
      if (stats?.isSymbolicLink() === true && mode === 'plan') throw symlinkRefused(dir)
      if (stats?.isDirectory() !== true) continue
      const fileKeys: string[] = []
      for (const name of (await this.list(dir, ref, mode, fs)).sort()) {
        if (!name.endsWith('.json') || name.startsWith('.') || seen.has(`${suite}/${name}`)) continue
        seen.add(`${suite}/${name}`)
        const fileKey = name.slice(0, -'.json'.length)
        // A name that is not a key is never opened: it is one more document nobody read.
        if (isSafeSegment(fileKey)) fileKeys.push(fileKey)
        else unread += 1
      }
      if (fileKeys.length > 0) bySuite.set(suite, fileKeys)
    }
    return { bySuite, unread }
  }

  /** The leg numbers of a key in a suite's journal directory, by name (a leg is never opened to be removed). */
  async legsOf(tenant: string, suite: string, key: string, mode: ScanMode): Promise<number[]> {
    const dir = this.paths.pendingDir(tenant, suite)
    await this.inside(dir)
    const legs: number[] = []
    for (const name of await this.list(dir, { tenant, suite, key }, mode)) {
      const parsed = isTempName(name) ? undefined : parseLegName(name)
      if (parsed?.key === key) legs.push(parsed.leg)
    }
    return legs.sort((a, b) => a - b)
  }

  private async assertNoLiveWriter(run: PlannedRun, asked: RunRef): Promise<void> {
    const { tenant, suite, key } = run.ref
    if (run.legs === 0) return
    const leases: LegLease[] = []
    for (const leg of await this.legsOf(tenant, suite, key, 'plan')) {
      const peek = await peekLegHeader(this.fs, this.paths.journalLegFile(tenant, suite, key, leg), run.ref)
      if (peek !== undefined) leases.push({ leg, lease: peek.lease, since: peek.started_at, live: leaseHolds(peek.lease) })
    }
    const live = liveLeaseOf(leases)
    if (live === undefined) return
    throw new LiveRunError(
      `refused to delete run ${asked.key} of suite ${asked.suite}: run ${key} (suite ${suite}) is still being written by ${describeWriter(live)}, whose lease holds (same boot, pid and process start time); nothing was removed`,
      `let process ${live.lease.pid} finish its run (or stop it with \`kill ${live.lease.pid}\` if you mean to abandon that run), then repeat \`digline delete --suite ${asked.suite} --run ${asked.key}\``,
    )
  }

  /** Every path the removal will touch stays inside the store (no symlinked component). */
  private async assertInside(run: PlannedRun): Promise<void> {
    const { tenant, suite, key } = run.ref
    for (const file of [...(run.file === undefined ? [] : [run.file]), ...run.copies]) await this.inside(file)
    if (!isSafeSegment(key)) return
    await this.inside(this.paths.runFile(tenant, suite, key))
    await this.inside(this.paths.removalRecordFile(tenant, suite, key))
    for (const leg of await this.legsOf(tenant, suite, key, 'plan')) await this.inside(this.paths.journalLegFile(tenant, suite, key, leg))
  }

  private async inside(path: string): Promise<void> {
    try {
      await this.paths.assertInsideStore(this.fs, path)
    } catch (error) {
      // Gone since it was listed (a finishing run removes its legs): it cannot lead out of the store.
      if (isDiglineError(error) || errnoOf(error) !== 'ENOENT') throw isDiglineError(error) ? error : unlookable(path, error)
    }
  }

  private async lstat(path: string, mode: ScanMode, fs: FsLayer = this.fs): Promise<Stats | undefined> {
    try {
      return await fs.lstat(path)
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined
      throw mode === 'plan' ? unlookable(path, error) : secondLookFailure(path, error)
    }
  }

  private async list(dir: string, ref: RunRef, mode: ScanMode, fs: FsLayer = this.fs): Promise<string[]> {
    try {
      return await fs.readdir(dir)
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return []
      if (mode === 'second look') throw secondLookFailure(dir, error)
      throw new DirectoryUnreadableError(
        `refused to delete run ${ref.key} of suite ${ref.suite}: the directory ${dir} cannot be listed (${errnoOf(error) ?? String(error)}), so whether it holds a replay of ${ref.key} is not known; nothing was removed`,
        `give the user running digline read access to ${dir}, then repeat \`digline delete --suite ${ref.suite} --run ${ref.key}\``,
      )
    }
  }
}

/**
 * A document of the run's own suite whose own key is the run's, filed under another name, is the run
 * itself: a wrong name must not keep its answers from the delete (as ADR 0044 §3.4 rules for replays).
 */
function withCopies(plan: DeletePlan): void {
  const { ref } = plan.target
  plan.target.copies = plan.docs
    .filter((d) => d.suite === ref.suite && d.header.key === ref.key && (d.header.suite ?? ref.suite) === ref.suite && (d.header.tenant ?? ref.tenant) === ref.tenant)
    .map((d) => d.file)
  if (plan.target.copies.length > 0) plan.target.document = true
}

function symlinkRefused(path: string): PathRefusedError {
  return new PathRefusedError(
    `refused ${path}: it is a symlink, and a delete never follows a path out of the store; nothing was removed`,
    `remove the symlink ${path}, then repeat the delete`,
  )
}

function unlookable(path: string, error: unknown): DirectoryUnreadableError {
  return new DirectoryUnreadableError(
    `refused to delete: ${path} cannot be looked at (${errnoOf(error) ?? (error instanceof Error ? error.message : String(error))}); nothing was removed`,
    `give the user running digline read access to ${path}, then repeat the delete`,
  )
}

function secondLookFailure(path: string, error: unknown): StoreWriteError {
  return storeWriteError('the second look of the delete at', path, error, 'the removal records are written and nothing was removed; repeat the delete to finish it')
}
