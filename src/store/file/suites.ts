// The suite lifecycle as files (SPEC §10): retiring a suite writes `.digline/<tenant>/name-table/
// <suite>.retired.json`, which no delete touches. A suite is a definition and is soft-deleted; its
// runs, baselines, register lines and removal records stay where they are.
import { join } from 'node:path'
import { lazySchema } from '../../suite/zod-on-demand.js'
import { UnreadableRunError } from '../errors.js'
import { ensureDirectory, removeCreatedDirectories, writeFileAtomic } from './atomic-write.js'
import type { SuiteRetirement } from '../contract.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import { guardedRead, guardedWrite } from './guarded-io.js'
import { assertSafeSegment, type StorePaths } from './paths.js'

const RETIRED_SUFFIX = '.retired.json'

const retirementSchema = lazySchema((z) => z.object({ tenant: z.string(), suite: z.string(), retired_at: z.string() }))

function unreadableRetirement(file: string, why: string): UnreadableRunError {
  return new UnreadableRunError(`refused to read the retirement record ${file}: ${why}`, `git checkout -- ${file} (restore it from git), or remove it to bring the suite back`)
}

export class FileSuites {
  constructor(
    private readonly paths: StorePaths,
    private readonly fs: FsLayer,
  ) {}

  private fileOf(tenant: string, suite: string): string {
    const dir = this.paths.nameTableDir(tenant)
    assertSafeSegment('suite', suite)
    return join(dir, `${suite}${RETIRED_SUFFIX}`)
  }

  async retirementOf(tenant: string, suite: string): Promise<SuiteRetirement | undefined> {
    const file = this.fileOf(tenant, suite)
    await guardedRead(file, () => this.paths.assertInsideStore(this.fs, file), unreadableRetirement)
    let text: string
    try {
      text = (await this.fs.readFile(file)).toString('utf8')
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined
      throw unreadableRetirement(file, `it cannot be read (${errnoOf(error) ?? String(error)})`)
    }
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      throw unreadableRetirement(file, 'it is not JSON')
    }
    const parsed = retirementSchema.safeParse(value)
    if (!parsed.success || parsed.data.tenant !== tenant || parsed.data.suite !== suite)
      throw unreadableRetirement(file, `it is not the retirement of suite ${suite} of tenant ${tenant}`)
    return { suite, retired_at: parsed.data.retired_at }
  }

  /** Retires the suite; retiring it again keeps the first retirement. */
  async retireSuite(tenant: string, suite: string, retiredAt: string): Promise<SuiteRetirement> {
    const existing = await this.retirementOf(tenant, suite)
    if (existing !== undefined) return existing
    const file = this.fileOf(tenant, suite)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    const created = await guardedWrite(file, () => ensureDirectory(this.fs, this.paths.nameTableDir(tenant)))
    try {
      await writeFileAtomic(this.fs, file, `${JSON.stringify({ tenant, suite, retired_at: retiredAt })}\n`)
    } catch (error) {
      await removeCreatedDirectories(this.fs, created)
      throw error
    }
    return { suite, retired_at: retiredAt }
  }

  /** The retired suites of a tenant, by name. */
  async retiredSuites(tenant: string): Promise<SuiteRetirement[]> {
    const dir = this.paths.nameTableDir(tenant)
    await guardedRead(dir, () => this.paths.assertInsideStore(this.fs, dir), unreadableRetirement)
    let names: string[]
    try {
      names = await this.fs.readdir(dir)
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return []
      throw unreadableRetirement(dir, `it cannot be listed (${errnoOf(error) ?? String(error)})`)
    }
    const out: SuiteRetirement[] = []
    for (const name of names.filter((n) => n.endsWith(RETIRED_SUFFIX)).sort()) {
      const suite = name.slice(0, -RETIRED_SUFFIX.length)
      const retirement = await this.retirementOf(tenant, suite).catch(() => undefined)
      if (retirement !== undefined) out.push(retirement)
    }
    return out
  }
}
