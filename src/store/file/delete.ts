// The run delete over files (ADR 0044, docs/adr/0014): the plan, then a removal record per run,
// a second look for replays filed meanwhile, the baseline once more, then the removal: each replay
// from the leaves towards the run asked for, each one's legs before its document, then the run's
// legs, then its document. Every interrupted state is finished by calling it again.
import { dirname } from 'node:path'
import { createdAtNow } from '../../suite/keys.js'
import { isSafeSegment } from '../../suite/safe-segment.js'
import { fsyncDirectory, storeWriteError } from './atomic-write.js'
import type { SupportsBaselines } from '../baselines.js'
import { DeletePlanner, type DeletePlan, type PlannedRun } from './delete-plan.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import type { StorePaths } from './paths.js'
import { REMOVAL_RECORD_VERSION, emptyRemovedRun, type Removal, type RemovedRun, type RunRef } from '../removal.js'
import type { FileRemovalRecords } from './removal-records.js'

export class FileDelete {
  private readonly planner: DeletePlanner

  constructor(
    private readonly paths: StorePaths,
    private readonly fs: FsLayer,
    baselines: SupportsBaselines,
    private readonly records: FileRemovalRecords,
    private readonly now: () => string = createdAtNow,
  ) {
    this.planner = new DeletePlanner(paths, fs, baselines)
  }

  async deleteRun(tenant: string, suite: string, key: string): Promise<Removal> {
    const ref = { tenant, suite, key }
    const plan = await this.planner.plan(ref)
    const alreadyRemovedAt = (await this.records.find(ref))?.record?.removed_at
    if (!plan.target.document && plan.target.legs === 0 && plan.replays.length === 0) {
      return { run: emptyRemovedRun(ref), replays: [], unread: plan.unread, nothing: true, alreadyRemovedAt }
    }
    await this.recordAll(plan, ref)
    const replays: RemovedRun[] = []
    for (const run of plan.replays) replays.push(await this.remove(run, ref))
    const run = await this.remove(plan.target, ref)
    const nothing = [run, ...replays].every((r) => !r.document && r.legs === 0)
    return { run, replays, unread: plan.unread, nothing, alreadyRemovedAt }
  }

  /**
   * A record per run before anything is removed, so no writer brings a key back; then a second look
   * until it finds no new replay, and the baseline again: a promotion that raced the plan withdraws
   * this delete's records and refuses it, as the plan would have.
   */
  private async recordAll(plan: DeletePlan, asked: RunRef): Promise<void> {
    const removedAt = this.now()
    const written: RunRef[] = []
    const record = async (run: PlannedRun): Promise<void> => {
      if (!isSafeSegment(run.ref.key)) return
      const wrote = await this.records.write({
        removal_version: REMOVAL_RECORD_VERSION,
        tenant: run.ref.tenant,
        suite: run.ref.suite,
        key: run.ref.key,
        created_at: run.created_at,
        removed_at: removedAt,
        removed: { document: run.document, legs: run.legs },
        replay_of: run.replayOf,
        requested: { suite: asked.suite, key: asked.key },
      })
      if (wrote) written.push(run.ref)
    }
    for (const run of [plan.target, ...plan.replays]) await record(run)
    for (let fresh = await this.planner.secondLook(plan); fresh.length > 0; fresh = await this.planner.secondLook(plan)) {
      for (const run of fresh) await record(run)
    }
    try {
      await this.planner.assertNotUnderBaseline(asked)
    } catch (error) {
      for (const ref of written) await this.records.withdraw(ref)
      throw error
    }
  }

  private async remove(run: PlannedRun, asked: RunRef): Promise<RemovedRun> {
    const { tenant, suite, key } = run.ref
    const outcome = `the delete stopped here; repeat \`digline delete --suite ${asked.suite} --run ${asked.key}\` to finish it`
    const removed = { ...emptyRemovedRun(run.ref), created_at: run.created_at }
    if (isSafeSegment(key)) {
      for (const leg of await this.planner.legsOf(tenant, suite, key, 'second look')) {
        if (await this.unlink(this.paths.journalLegFile(tenant, suite, key, leg), outcome)) removed.legs += 1
      }
      if (removed.legs > 0) await fsyncDirectory(this.fs, this.paths.pendingDir(tenant, suite), outcome)
    }
    // The run asked for is removed by name: a document published after the plan is still its own.
    const file = run.file ?? this.paths.runFile(tenant, suite, key)
    for (const copy of [...run.copies, file]) {
      if (!(await this.unlink(copy, outcome))) continue
      removed.document = true
      await fsyncDirectory(this.fs, dirname(copy), outcome)
    }
    return removed
  }

  private async unlink(file: string, outcome: string): Promise<boolean> {
    try {
      await this.fs.unlink(file)
      return true
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return false
      throw storeWriteError('removing', file, error, outcome)
    }
  }
}
