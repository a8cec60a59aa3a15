// Removal records as files: `.digline/<tenant>/removed/<suite>/<key>.json`, one per removed run.
// Every writer of a run asks here before it writes and again after it published (docs/adr/0014).
import { dirname } from 'node:path'
import { guardedWrite } from './guarded-io.js'
import { ensureDirectory, fsyncDirectory, storeWriteError, writeFileAtomic } from './atomic-write.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import { ensureGitignore } from './gitignore.js'
import type { StorePaths } from './paths.js'
import { removalRecordSchema, runRemovedError, type RemovalNotice, type RemovalRecord, type RunRef } from '../removal.js'

export { runRemovedError }

export class FileRemovalRecords {
  constructor(
    private readonly paths: StorePaths,
    private readonly fs: FsLayer,
  ) {}

  location(ref: RunRef): string {
    return this.paths.removalRecordFile(ref.tenant, ref.suite, ref.key)
  }

  /** Refuses (PathRefusedError) a record reached through a symlink; never opens what is not a regular file. */
  async find(ref: RunRef): Promise<RemovalNotice | undefined> {
    const file = this.location(ref)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    let bytes: Buffer
    try {
      // Something that is not a file (a FIFO would block the open) still says removed.
      if (!(await this.fs.lstat(file)).isFile()) return { location: file, record: undefined }
      bytes = await this.fs.readFile(file)
    } catch (error) {
      const errno = errnoOf(error)
      if (errno === 'ENOENT' || errno === 'ENOTDIR') return undefined
      // Something is there and cannot be read: it still says removed.
      return { location: file, record: undefined }
    }
    return { location: file, record: parseRecord(bytes, ref) }
  }

  async assertNotRemoved(ref: RunRef, doing: string): Promise<void> {
    const notice = await this.find(ref)
    if (notice !== undefined) throw runRemovedError(ref, notice, doing)
  }

  /** Writes the record unless one is there already (the first removal's time is kept); returns whether it wrote. */
  async write(record: RemovalRecord): Promise<boolean> {
    const ref = { tenant: record.tenant, suite: record.suite, key: record.key }
    const file = this.location(ref)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    if ((await this.find(ref)) !== undefined) return false
    await ensureDirectory(this.fs, dirname(file))
    await ensureGitignore(this.fs, this.paths)
    await writeFileAtomic(this.fs, file, `${JSON.stringify(removalRecordSchema.parse(record), null, 2)}\n`)
    return true
  }

  /** Takes back a record this process wrote, when the delete it belongs to is refused after all. */
  async withdraw(ref: RunRef): Promise<void> {
    const file = this.location(ref)
    try {
      await this.fs.unlink(file)
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw storeWriteError('withdrawing the removal record', file, error, 'the record stays, and the key reads as removed')
    }
    await fsyncDirectory(this.fs, dirname(file))
  }
}

function parseRecord(bytes: Buffer, ref: RunRef): RemovalRecord | undefined {
  try {
    const parsed = removalRecordSchema.safeParse(JSON.parse(bytes.toString('utf8')))
    if (!parsed.success) return undefined
    const r = parsed.data
    return r.tenant === ref.tenant && r.suite === ref.suite && r.key === ref.key ? r : undefined
  } catch {
    return undefined
  }
}
