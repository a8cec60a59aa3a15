// Review records as files: `.digline/<tenant>/runs/<suite>/.reviews/<key>/<review_id>.json`, one
// record per file, written atomically and never rewritten (docs/adr/0341). Beside the runs, so the
// generated .gitignore keeps them out of git with the runs they label. The removal record of a run
// is looked at before and after an append, as every writer of a run does (docs/adr/0014).
import { join } from 'node:path'
import { isDiglineError } from '../../errors/base.js'
import { RunNotFoundError, UnreadableReviewError } from '../errors.js'
import { checkReview, compareReviews, type ReviewRecord } from '../review.js'
import type { StoredReview } from '../contract.js'
import { isSafeSegment } from '../../suite/safe-segment.js'
import { fsyncDirectory } from './atomic-write.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import { guardedWrite } from './guarded-io.js'
import { writeStoreFile } from './write-store-file.js'
import { assertSafeSegment, type StorePaths } from './paths.js'
import type { FileRemovalRecords } from './removal-records.js'
import { runRemovedError } from './removal-records.js'

const SUFFIX = '.json'
const ID_FILE = /^[0-9a-f]{64}\.json$/

export class FileReviews {
  constructor(
    private readonly paths: StorePaths,
    private readonly fs: FsLayer,
    private readonly records: FileRemovalRecords,
  ) {}

  async appendReview(value: ReviewRecord): Promise<StoredReview> {
    const review = checkReview(value)
    const ref = { tenant: review.tenant, suite: review.suite, key: review.run }
    const dir = this.paths.reviewRunDir(ref.tenant, ref.suite, ref.key)
    const file = join(dir, `${review.review_id}${SUFFIX}`)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    await this.records.assertNotRemoved(ref, 'label a case of')
    await this.assertFiled(ref.tenant, ref.suite, ref.key)
    if (await this.exists(file)) return { review_id: review.review_id, appended: false, location: file }
    await writeStoreFile(this.fs, this.paths, dir, file, `${JSON.stringify(review, null, 2)}\n`)
    // A delete may have recorded the run while this append was under way: taken back, then refused.
    const notice = await this.records.find(ref)
    if (notice !== undefined) {
      await this.fs.unlink(file).catch(() => undefined)
      await fsyncDirectory(this.fs, dir).catch(() => undefined)
      throw runRemovedError(ref, notice, 'label a case of')
    }
    return { review_id: review.review_id, appended: true, location: file }
  }

  async listReviews(tenant: string, suite: string, key?: string): Promise<ReviewRecord[]> {
    const base = this.paths.reviewsDir(tenant, suite)
    if (key !== undefined) assertSafeSegment('key', key)
    const keys = key === undefined ? (await this.list(base)).filter(isSafeSegment) : [key]
    const reviews: ReviewRecord[] = []
    for (const run of keys) {
      // A removed run has no labels, even ones an interrupted delete left behind.
      if ((await this.records.find({ tenant, suite, key: run })) !== undefined) continue
      const dir = this.paths.reviewRunDir(tenant, suite, run)
      for (const name of await this.list(dir)) {
        if (!ID_FILE.test(name)) continue
        reviews.push(await this.read(join(dir, name), { tenant, suite, run, id: name.slice(0, -SUFFIX.length) }))
      }
    }
    return reviews.sort(compareReviews)
  }

  /** Removes every label of a removed run (deleteRun calls it after the run's removal record is written); returns how many went. */
  async forgetRunReviews(tenant: string, suite: string, key: string): Promise<number> {
    const dir = this.paths.reviewRunDir(tenant, suite, key)
    let removed = 0
    for (const name of await this.list(dir)) {
      await guardedWrite(dir, () => this.fs.unlink(join(dir, name))).catch((error: unknown) => {
        if (errnoOf(error) !== 'ENOENT') throw error
      })
      if (ID_FILE.test(name)) removed++
    }
    await guardedWrite(dir, () => this.fs.rmdir(dir)).catch(() => undefined)
    return removed
  }

  private async assertFiled(tenant: string, suite: string, key: string): Promise<void> {
    const file = this.paths.runFile(tenant, suite, key)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    const filed = await this.fs.lstat(file).then(
      (stats) => stats.isFile(),
      () => false,
    )
    if (!filed) {
      throw new RunNotFoundError(
        `refused to label a case of run ${key} of suite ${suite} (tenant ${tenant}): no run document is filed under that key (a run still in progress is labelled once it is filed); nothing was written`,
        `digline list --suite ${suite}`,
        ['run'],
      )
    }
  }

  private async exists(file: string): Promise<boolean> {
    return this.fs.lstat(file).then(
      () => true,
      (error: unknown) => {
        if (errnoOf(error) === 'ENOENT') return false
        throw error
      },
    )
  }

  private async list(dir: string): Promise<string[]> {
    await guardedWrite(dir, () => this.paths.assertInsideStore(this.fs, dir))
    try {
      return (await this.fs.readdir(dir)).sort()
    } catch (error) {
      if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return []
      throw error
    }
  }

  private async read(file: string, place: { tenant: string; suite: string; run: string; id: string }): Promise<ReviewRecord> {
    let review: ReviewRecord
    try {
      await this.paths.assertInsideStore(this.fs, file)
      if (!(await this.fs.lstat(file)).isFile()) throw new Error('it is not a regular file')
      review = checkReview(JSON.parse((await this.fs.readFile(file)).toString('utf8')) as unknown, file)
    } catch (error) {
      const why = isDiglineError(error) ? error.message.split('\n')[0]! : error instanceof Error ? error.message : String(error)
      throw unreadable(file, place.suite, why)
    }
    if (review.tenant !== place.tenant || review.suite !== place.suite || review.run !== place.run || review.review_id !== place.id) {
      throw unreadable(
        file,
        place.suite,
        `it is filed under run ${place.run} as ${place.id} but is review ${review.review_id} of run ${review.run} of suite ${review.suite} (tenant ${review.tenant})`,
      )
    }
    return review
  }
}

function unreadable(file: string, suite: string, why: string): UnreadableReviewError {
  return new UnreadableReviewError(
    `refused the review record ${file}: ${why}`,
    `move ${file} out of the store (or restore it from a backup), then list the labels again with \`digline list --suite ${suite}\``,
    ['review'],
  )
}
