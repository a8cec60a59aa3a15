// The store's layout, and the only place that joins paths under the store root. Every tenant, suite
// and key is checked before a path is built, so an unsafe name is refused before any I/O.
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { PathRefusedError } from '../../suite/errors.js'
import { assertSafeSegment } from '../../suite/assert-safe-segment.js'
import { holdingDirectory } from './beneath-root.js'
import { errnoOf, type FsLayer } from './fs-layer.js'

// the store's files import it from here; it lives in suite/ beside isSafeSegment
export { assertSafeSegment, type SegmentKind } from '../../suite/assert-safe-segment.js'

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target)
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`))
}

export class StorePaths {
  readonly root: string
  private realRoot: string | undefined

  constructor(root: string) {
    this.root = resolve(root)
  }

  gitignoreFile(): string {
    return join(this.root, '.gitignore')
  }

  tenantDir(tenant: string): string {
    assertSafeSegment('tenant', tenant)
    return join(this.root, tenant)
  }

  runsDir(tenant: string): string {
    return join(this.tenantDir(tenant), 'runs')
  }

  suiteRunsDir(tenant: string, suite: string): string {
    const runs = this.runsDir(tenant)
    assertSafeSegment('suite', suite)
    return join(runs, suite)
  }

  runFile(tenant: string, suite: string, key: string): string {
    const dir = this.suiteRunsDir(tenant, suite)
    assertSafeSegment('key', key)
    return join(dir, `${key}.json`)
  }

  pendingDir(tenant: string, suite: string): string {
    return join(this.suiteRunsDir(tenant, suite), '.pending')
  }

  /** One leg of a run's journal; journal-format's parseLegName reads this name back. */
  journalLegFile(tenant: string, suite: string, key: string, leg: number): string {
    const dir = this.pendingDir(tenant, suite)
    assertSafeSegment('key', key)
    if (!Number.isSafeInteger(leg) || leg < 1) throw new RangeError(`a journal leg is a positive integer, not ${String(leg)}`)
    return join(dir, `${key}.${leg}.jsonl`)
  }

  /** Review records live beside their runs (so the generated .gitignore keeps them out of git as it does the runs). */
  reviewsDir(tenant: string, suite: string): string {
    return join(this.suiteRunsDir(tenant, suite), '.reviews')
  }

  reviewRunDir(tenant: string, suite: string, key: string): string {
    const dir = this.reviewsDir(tenant, suite)
    assertSafeSegment('key', key)
    return join(dir, key)
  }

  baselinesDir(tenant: string): string {
    return join(this.tenantDir(tenant), 'baselines')
  }

  baselineFile(tenant: string, suite: string): string {
    const dir = this.baselinesDir(tenant)
    assertSafeSegment('suite', suite)
    return join(dir, `${suite}.json`)
  }

  registerFile(tenant: string): string {
    return join(this.tenantDir(tenant), 'register.jsonl')
  }

  removedDir(tenant: string): string {
    return join(this.tenantDir(tenant), 'removed')
  }

  nameTableDir(tenant: string): string {
    return join(this.tenantDir(tenant), 'name-table')
  }

  cacheDir(tenant: string): string {
    return join(this.tenantDir(tenant), 'cache')
  }

  cacheSuiteDir(tenant: string, suite: string): string {
    const dir = this.cacheDir(tenant)
    assertSafeSegment('suite', suite)
    return join(dir, suite)
  }

  cacheCaseDir(tenant: string, suite: string, caseId: string): string {
    const dir = this.cacheSuiteDir(tenant, suite)
    assertSafeSegment('case', caseId)
    return join(dir, caseId)
  }

  toolsSuiteDir(tenant: string, suite: string): string {
    const dir = join(this.tenantDir(tenant), 'tools')
    assertSafeSegment('suite', suite)
    return join(dir, suite)
  }

  toolsCaseDir(tenant: string, suite: string, caseId: string): string {
    const dir = this.toolsSuiteDir(tenant, suite)
    assertSafeSegment('case', caseId)
    return join(dir, caseId)
  }

  removedSuiteDir(tenant: string, suite: string): string {
    const dir = this.removedDir(tenant)
    assertSafeSegment('suite', suite)
    return join(dir, suite)
  }

  /** The removal record of one run: a key is removed per suite, as two suites may share a key. */
  removalRecordFile(tenant: string, suite: string, key: string): string {
    const dir = this.removedSuiteDir(tenant, suite)
    assertSafeSegment('key', key)
    return join(dir, `${key}.json`)
  }

  /**
   * Refuses a target outside the root, or one reached through a symlink: every component from just
   * below the root down to the target (inclusive) that exists must be a real file or directory. The
   * root itself may be a symlink.
   */
  async assertInsideStore(fs: FsLayer, target: string): Promise<void> {
    const absolute = resolve(target)
    if (!isInside(this.root, absolute)) throw this.outside(absolute, 'it is not under the store root')
    const segments = relative(this.root, absolute)
      .split(sep)
      .filter((s) => s !== '')
    // Each directory on the way is held open while the next component is looked at, so the walk
    // opens each component once instead of walking from the root for every one (ADR 0088).
    const deepest = async (layer: FsLayer, depth: number, current: string, found: string | undefined): Promise<string | undefined> => {
      const segment = segments[depth]
      if (segment === undefined) return found
      const next = join(current, segment)
      const stats = await lstatOrUndefined(layer, next)
      if (stats === undefined) return found
      if (stats.isSymbolicLink()) throw this.outside(absolute, `${next} is a symlink`)
      if (!stats.isDirectory() || depth === segments.length - 1) return next
      return holdingDirectory(layer, next, (held) => deepest(held, depth + 1, next, next))
    }
    const deepestExisting = await deepest(fs, 0, this.root, undefined)
    if (deepestExisting === undefined) return
    const realRoot = await this.resolveRealRoot(fs)
    const real = await fs.realpath(deepestExisting)
    if (realRoot !== undefined && !isInside(realRoot, real)) throw this.outside(absolute, `${deepestExisting} resolves to ${real}`)
  }

  private async resolveRealRoot(fs: FsLayer): Promise<string | undefined> {
    if (this.realRoot !== undefined) return this.realRoot
    try {
      this.realRoot = await fs.realpath(this.root)
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error
    }
    return this.realRoot
  }

  private outside(target: string, why: string): PathRefusedError {
    return new PathRefusedError(
      `refused the path ${target}: ${why}, and the store (${this.root}) never follows a path out of itself`,
      `remove the symlink or move the file back under ${this.root}, then run the command again`,
    )
  }
}

async function lstatOrUndefined(fs: FsLayer, path: string) {
  try {
    return await fs.lstat(path)
  } catch (error) {
    const code = errnoOf(error)
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    throw error
  }
}
