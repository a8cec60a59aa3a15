// The response cache as files (SPEC §14): `.digline/<tenant>/cache/<suite>/<case>/<key>.json`, one
// entry per file, written atomically. The generated .gitignore keeps it out of git; the delete of a
// run removes the entries it asked for (SPEC §7). An entry that cannot be read, or is not the entry
// its name says, is a miss.
import { join } from 'node:path'
import { lazySchema } from '../../suite/zod-on-demand.js'
import { PathRefusedError } from '../../suite/errors.js'
import { assertCacheKey, assertKeyOfItsParts, cacheKeyOf, isCacheKey, type CacheEntry } from '../../suite/cache-key.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import { guardedWrite } from './guarded-io.js'
import { writeStoreFile } from './write-store-file.js'
import { assertSafeSegment, type StorePaths } from './paths.js'
import { cachedAnswerSchema } from '../../document/answer-shape.js'

const ENTRY_SUFFIX = '.json'
const hex64 = lazySchema((z) => z.string().regex(/^[0-9a-f]{64}$/))

const entrySchema = lazySchema((z) =>
  z.object({
    key: hex64,
    case_id: z.string(),
    parts: z.object({ input: hex64, target: hex64, sample: z.number().int().nonnegative(), artifacts: hex64, code: hex64 }),
    code_files: z.record(z.string(), hex64),
    run: z.string(),
    answer: cachedAnswerSchema,
    cached_at: z.string(),
  }),
)

export class FileCache {
  constructor(
    private readonly paths: StorePaths,
    private readonly fs: FsLayer,
  ) {}

  private entryFile(tenant: string, suite: string, caseId: string, key: string): string {
    const dir = this.paths.cacheCaseDir(tenant, suite, caseId)
    assertCacheKey(key)
    return join(dir, `${key}${ENTRY_SUFFIX}`)
  }

  async cachedAnswer(tenant: string, suite: string, caseId: string, key: string): Promise<CacheEntry | undefined> {
    const file = this.entryFile(tenant, suite, caseId, key)
    const entry = await this.readEntry(file)
    return entry !== undefined && entry.key === key && entry.case_id === caseId ? entry : undefined
  }

  async cacheAnswer(tenant: string, suite: string, entry: CacheEntry): Promise<void> {
    assertSafeSegment('case', entry.case_id)
    const file = this.entryFile(tenant, suite, entry.case_id, entry.key)
    assertKeyOfItsParts(entry)
    const dir = this.paths.cacheCaseDir(tenant, suite, entry.case_id)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    await writeStoreFile(this.fs, this.paths, dir, file, `${JSON.stringify(entry)}\n`)
  }

  async cachedAnswersOf(tenant: string, suite: string, caseId: string): Promise<CacheEntry[]> {
    const dir = this.paths.cacheCaseDir(tenant, suite, caseId)
    const entries: CacheEntry[] = []
    for (const name of await this.list(dir)) {
      if (!name.endsWith(ENTRY_SUFFIX) || !isCacheKey(name.slice(0, -ENTRY_SUFFIX.length))) continue
      const entry = await this.readEntry(join(dir, name))
      if (entry !== undefined && entry.case_id === caseId && `${entry.key}${ENTRY_SUFFIX}` === name) entries.push(entry)
    }
    return entries.sort((a, b) => (a.cached_at < b.cached_at ? 1 : a.cached_at > b.cached_at ? -1 : a.key < b.key ? -1 : 1))
  }

  async clearCache(tenant: string, suite?: string): Promise<number> {
    const suites = suite === undefined ? await this.list(this.paths.cacheDir(tenant)) : [suite]
    let removed = 0
    for (const s of suites) {
      if (suite === undefined && !isSafeName(s)) continue
      const suiteDir = this.paths.cacheSuiteDir(tenant, s)
      await guardedWrite(suiteDir, () => this.paths.assertInsideStore(this.fs, suiteDir))
      for (const caseId of await this.list(suiteDir)) {
        if (!isSafeName(caseId)) continue
        const caseDir = this.paths.cacheCaseDir(tenant, s, caseId)
        for (const name of await this.list(caseDir)) {
          await guardedWrite(caseDir, () => this.fs.unlink(join(caseDir, name)))
          if (name.endsWith(ENTRY_SUFFIX)) removed++
        }
        await guardedWrite(caseDir, () => this.fs.rmdir(caseDir)).catch(() => undefined)
      }
      await guardedWrite(suiteDir, () => this.fs.rmdir(suiteDir)).catch(() => undefined)
    }
    return removed
  }

  async forgetRunAnswers(tenant: string, suite: string, key: string): Promise<number> {
    assertSafeSegment('key', key)
    const suiteDir = this.paths.cacheSuiteDir(tenant, suite)
    let removed = 0
    for (const caseId of await this.list(suiteDir)) {
      if (!isSafeName(caseId)) continue
      const caseDir = this.paths.cacheCaseDir(tenant, suite, caseId)
      for (const name of await this.list(caseDir)) {
        if (!name.endsWith(ENTRY_SUFFIX)) continue
        // An entry that cannot be read names no run; it is read as a miss and replaced, never kept for a run.
        const entry = await this.readEntry(join(caseDir, name))
        if (entry !== undefined && entry.run !== key) continue
        await guardedWrite(caseDir, () => this.fs.unlink(join(caseDir, name))).catch((error: unknown) => {
          if (errnoOf(error) !== 'ENOENT') throw error
        })
        if (entry !== undefined) removed++
      }
    }
    return removed
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

  private async readEntry(file: string): Promise<CacheEntry | undefined> {
    try {
      await this.paths.assertInsideStore(this.fs, file)
      const parsed = entrySchema.safeParse(JSON.parse((await this.fs.readFile(file)).toString('utf8')))
      if (!parsed.success || cacheKeyOf(parsed.data.case_id, parsed.data.parts) !== parsed.data.key) return undefined
      return parsed.data as CacheEntry
    } catch (error) {
      if (error instanceof PathRefusedError) throw error
      return undefined
    }
  }
}

function isSafeName(name: string): boolean {
  try {
    assertSafeSegment('suite', name)
    return true
  } catch {
    return false
  }
}
