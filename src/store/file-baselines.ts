// Baselines and the register as files: `.digline/<tenant>/baselines/<suite>.json` (replaced
// atomically) and `.digline/<tenant>/register.jsonl` (append-only, one write and an fsync a line).
import type { z } from 'zod'
import { guardedWrite } from './guarded-io.js'
import {
  baselineDocumentSchema,
  registerEntrySchema,
  serializeBaseline,
  serializeRegisterEntry,
  type BaselineDocument,
  type RegisterEntry,
} from '../document/baseline.js'
import { SCHEMA_VERSION } from '../document/schema.js'
import { InternalError, isDiglineError, PathRefusedError, SuiteMismatchError, TenantMismatchError, UnknownSchemaVersionError, UnreadableBaselineError, UnreadableRegisterError } from '../errors.js'
import { keyFor } from '../suite/keys.js'
import { appendLineDurably, ensureDirectory, removeCreatedDirectories, storeWriteError, writeFileAtomic } from './atomic-write.js'
import type { StoredBaseline, SupportsBaselines } from './baselines.js'
import { errnoOf, type FsLayer } from './fs-layer.js'
import { assertSafeSegment, type StorePaths } from './paths.js'

function unreadableBaseline(file: string, why: string, path: readonly (string | number)[] = []): UnreadableBaselineError {
  return new UnreadableBaselineError(
    `refused to read the baseline ${file}: ${why}`,
    `git checkout -- ${file} (restore it from git), or promote a run again with \`digline promote\``,
    path,
  )
}

function unreadableRegister(file: string, why: string): UnreadableRegisterError {
  return new UnreadableRegisterError(`refused to read the register ${file}: ${why}`, `git checkout -- ${file} (restore it from git), then run the command again`)
}

function firstIssue(error: z.ZodError): { where: string; message: string; path: (string | number)[] } {
  const issue = error.issues[0]
  const path = (issue?.path ?? []).filter((p): p is string | number => typeof p === 'string' || typeof p === 'number')
  return { where: path.length === 0 ? '(the document)' : path.join('.'), message: issue?.message ?? 'invalid', path }
}

export class FileBaselines implements SupportsBaselines {
  constructor(
    private readonly paths: StorePaths,
    private readonly fs: FsLayer,
  ) {}

  baselineLocation(tenant: string, suite: string): string {
    return this.paths.baselineFile(tenant, suite)
  }

  registerLocation(tenant: string): string {
    return this.paths.registerFile(tenant)
  }

  async baselineBytes(tenant: string, suite: string): Promise<Uint8Array | undefined> {
    const file = this.paths.baselineFile(tenant, suite)
    await this.reading(file, () => this.paths.assertInsideStore(this.fs, file), unreadableBaseline)
    try {
      return await this.fs.readFile(file)
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined
      throw this.readFailure(file, error, unreadableBaseline)
    }
  }

  async readBaseline(tenant: string, suite: string): Promise<BaselineDocument | undefined> {
    const bytes = await this.baselineBytes(tenant, suite)
    if (bytes === undefined) return undefined
    const file = this.paths.baselineFile(tenant, suite)
    let value: unknown
    try {
      value = JSON.parse(Buffer.from(bytes).toString('utf8'))
    } catch (error) {
      throw unreadableBaseline(file, `it is not JSON (${(error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')})`)
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw unreadableBaseline(file, 'it is not a JSON object')
    const version = (value as { schema_version?: unknown }).schema_version
    if (typeof version === 'number' && version !== SCHEMA_VERSION) {
      throw new UnknownSchemaVersionError(
        `refused to read the baseline ${file}: its schema_version is ${version}, and this digline reads schema_version ${SCHEMA_VERSION}`,
        `upgrade digline to a version that reads schema_version ${version}; ${file} is left as it is`,
        ['schema_version'],
      )
    }
    const parsed = baselineDocumentSchema.safeParse(value)
    if (!parsed.success) {
      const issue = firstIssue(parsed.error)
      throw unreadableBaseline(file, `it does not match the baseline schema at ${issue.where}: ${issue.message}`, issue.path)
    }
    const doc = parsed.data
    if (doc.tenant !== tenant) {
      throw new TenantMismatchError(
        `refused the baseline ${file}: it is filed under tenant ${JSON.stringify(tenant)} but belongs to tenant ${JSON.stringify(doc.tenant)}`,
        `git checkout -- ${file}, or promote a run of tenant ${JSON.stringify(tenant)}`,
        ['tenant'],
      )
    }
    if (doc.suite !== suite) {
      throw new SuiteMismatchError(
        `refused the baseline ${file}: it is filed as the baseline of suite ${JSON.stringify(suite)} but belongs to suite ${JSON.stringify(doc.suite)}`,
        `git checkout -- ${file}, or promote a run of suite ${JSON.stringify(suite)}`,
        ['suite'],
      )
    }
    const ownKey = keyFor(doc.created_at, doc.config_hash)
    if (doc.promoted_from !== ownKey) {
      throw unreadableBaseline(file, `its promoted_from ${doc.promoted_from} is not the key of the run it holds (${ownKey})`, ['promoted_from'])
    }
    return doc
  }

  async writeBaseline(doc: BaselineDocument): Promise<StoredBaseline> {
    const parsed = baselineDocumentSchema.safeParse(doc)
    if (!parsed.success) {
      const issue = firstIssue(parsed.error)
      throw new InternalError(`digline built a baseline that does not match the baseline schema at ${issue.where}: ${issue.message}; nothing was written`, issue.path)
    }
    const valid = parsed.data
    assertSafeSegment('tenant', valid.tenant)
    assertSafeSegment('suite', valid.suite)
    const file = this.paths.baselineFile(valid.tenant, valid.suite)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    const created = await ensureDirectory(this.fs, this.paths.baselinesDir(valid.tenant))
    try {
      await writeFileAtomic(this.fs, file, serializeBaseline(valid))
    } catch (error) {
      await removeCreatedDirectories(this.fs, created)
      throw error
    }
    return { tenant: valid.tenant, suite: valid.suite, key: valid.promoted_from, location: file }
  }

  async restoreBaseline(tenant: string, suite: string, previous: Uint8Array | undefined): Promise<void> {
    const file = this.paths.baselineFile(tenant, suite)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    if (previous !== undefined) return writeFileAtomic(this.fs, file, previous)
    try {
      await this.fs.unlink(file)
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw storeWriteError('removing', file, error, 'the new baseline is still in place')
    }
  }

  async appendRegister(tenant: string, entry: RegisterEntry): Promise<void> {
    const file = this.paths.registerFile(tenant)
    await guardedWrite(file, () => this.paths.assertInsideStore(this.fs, file))
    const existing = await this.registerText(file)
    if (existing !== undefined && existing !== '' && !existing.endsWith('\n')) {
      throw unreadableRegister(file, 'its last line is not terminated by a newline, so a new line would be glued onto it')
    }
    const created = await ensureDirectory(this.fs, this.paths.tenantDir(tenant))
    try {
      await appendLineDurably(this.fs, file, serializeRegisterEntry(registerEntrySchema.parse(entry)))
    } catch (error) {
      await removeCreatedDirectories(this.fs, created)
      throw error
    }
  }

  async readRegister(tenant: string): Promise<RegisterEntry[]> {
    const file = this.paths.registerFile(tenant)
    await this.reading(file, () => this.paths.assertInsideStore(this.fs, file), unreadableRegister)
    const text = await this.registerText(file)
    if (text === undefined || text === '') return []
    if (!text.endsWith('\n')) throw unreadableRegister(file, 'its last line is not terminated by a newline')
    return text
      .slice(0, -1)
      .split('\n')
      .map((line, i) => {
        let value: unknown
        try {
          value = JSON.parse(line)
        } catch {
          throw unreadableRegister(file, `line ${i + 1} is not JSON`)
        }
        const parsed = registerEntrySchema.safeParse(value)
        if (!parsed.success) throw unreadableRegister(file, `line ${i + 1} is not a register entry (${firstIssue(parsed.error).where}: ${firstIssue(parsed.error).message})`)
        return parsed.data
      })
  }

  private async registerText(file: string): Promise<string | undefined> {
    try {
      return (await this.fs.readFile(file)).toString('utf8')
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined
      throw this.readFailure(file, error, unreadableRegister)
    }
  }


  private async reading<T>(path: string, step: () => Promise<T>, unreadable: (file: string, why: string) => Error): Promise<T> {
    try {
      return await step()
    } catch (error) {
      if (isDiglineError(error)) throw error
      throw this.readFailure(path, error, unreadable)
    }
  }

  private readFailure(path: string, error: unknown, unreadable: (file: string, why: string) => Error): Error {
    const errno = errnoOf(error)
    if (errno === 'ELOOP') return new PathRefusedError(`refused ${path}: it is a symlink, and the store never follows one`, `remove the symlink ${path}`)
    return unreadable(path, `it cannot be read (${errno ?? (error instanceof Error ? error.message : String(error))})`)
  }
}
