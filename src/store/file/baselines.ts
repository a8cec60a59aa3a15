// Baselines and the register as files: `.digline/<tenant>/baselines/<suite>.json` (replaced
// atomically) and `.digline/<tenant>/register.jsonl` (append-only, one write and an fsync a line).
// A promotion is a compare-and-swap under the tenant's promotion lock (promote-lock.ts); a torn last
// register line, which only a crash mid-append leaves, is cut off under the same lock.
import { constants } from 'node:fs'
import { join } from 'node:path'
import type { z } from 'zod'
import { guardedWrite } from './guarded-io.js'
import { baselineDocumentSchema, registerEntrySchema, serializeBaseline, serializeRegisterEntry, type BaselineDocument, type RegisterEntry } from '../../document/baseline.js'
import { safeParseBaseline } from '../../document/fast-shape.js'
import { SCHEMA_VERSION } from '../../document/schema.js'
import { InternalError, isDiglineError } from '../../errors/base.js'
import { PathRefusedError } from '../../suite/errors.js'
import { SuiteMismatchError, TenantMismatchError, UnknownSchemaVersionError, UnreadableBaselineError, UnreadableRegisterError } from '../errors.js'
import { keyFor } from '../../suite/keys.js'
import { appendLineDurably, ensureDirectory, removeCreatedDirectories, storeWriteError, writeFileAtomic } from './atomic-write.js'
import type { StoredBaseline, SupportsBaselines } from '../baselines.js'
import type { PromotionRequest, PromotionResult } from '../contract.js'
import { errnoOf, type FileHandle, type FsLayer } from './fs-layer.js'
import { assertSafeSegment, type StorePaths } from './paths.js'
import { PromoteLock } from './promote-lock.js'
import type { RemovalNotice, RunRef } from '../removal.js'
import { runRemovedError } from '../removal.js'
import { assertPromotionRequest, notCurrentBaseline } from '../promotion-refusal.js'

export interface FileBaselinesOptions {
  /** The removal record of a key, so that no promotion brings a removed key back. */
  removalOf: (ref: RunRef) => Promise<RemovalNotice | undefined>
  /** Where the store says what it recovered by itself (a torn register line). */
  say: (line: string) => void
}

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
    private readonly options: FileBaselinesOptions = { removalOf: async () => undefined, say: () => undefined },
  ) {}

  private lockOf(tenant: string): PromoteLock {
    return new PromoteLock(this.fs, join(this.paths.tenantDir(tenant), '.promote.lock'), undefined, this.options.say)
  }

  /** The compare-and-swap of the Store contract: check, baseline write and register append under the tenant's lock. */
  async promote(request: PromotionRequest): Promise<PromotionResult> {
    const { tenant, suite, expected, baseline, entry } = request
    assertPromotionRequest(request)
    const key = baseline.promoted_from
    const ref = { tenant, suite, key }
    const baselineFile = this.paths.baselineFile(tenant, suite)
    const registerFile = this.paths.registerFile(tenant)
    const where = { baselineLocation: baselineFile, registerLocation: registerFile, committedByGit: true }
    const tenantDir = this.paths.tenantDir(tenant)
    await guardedWrite(tenantDir, () => this.paths.assertInsideStore(this.fs, baselineFile))
    await guardedWrite(tenantDir, () => this.paths.assertInsideStore(this.fs, registerFile))
    const created = await guardedWrite(tenantDir, () => ensureDirectory(this.fs, tenantDir))
    let landed = false
    try {
      return await guardedWrite(tenantDir, () =>
        this.lockOf(tenant).holding(async (): Promise<PromotionResult> => {
          await this.recoverTornRegister(tenant)
          const register = await this.readRegister(tenant)
          const removal = await this.options.removalOf(ref)
          if (removal !== undefined) throw runRemovedError(ref, removal, 'promote')
          const current = await this.readBaseline(tenant, suite)
          if (current !== undefined && current.promoted_from === key) {
            const last = register.filter((e) => e.suite === suite).at(-1)
            if (last?.key === key) return { ...where, outcome: 'already', entry: undefined }
            const completing = { ...entry, promoted_at: current.promoted_at }
            await this.appendRegister(tenant, completing)
            landed = true
            return { ...where, outcome: 'completed', entry: completing }
          }
          const currentKey = current?.promoted_from ?? null
          if (currentKey !== expected) throw notCurrentBaseline(suite, key, expected, current)
          const previous = await this.baselineBytes(tenant, suite)
          try {
            await this.writeBaseline(baseline)
            landed = true
            // A delete of KEY that passed its baseline check meanwhile has written its record by now,
            // or it reads this baseline when it checks again (docs/adr/0014): one of the two steps back.
            const removedMeanwhile = await this.options.removalOf(ref)
            if (removedMeanwhile !== undefined) throw runRemovedError(ref, removedMeanwhile, 'promote')
            await this.appendRegister(tenant, entry)
          } catch (error) {
            await this.restoreBaseline(tenant, suite, previous).catch(() => undefined)
            landed = false
            throw error
          }
          return { ...where, outcome: 'promoted', entry }
        }),
      )
    } finally {
      if (!landed) await removeCreatedDirectories(this.fs, created)
    }
  }

  /**
   * Cuts off an unterminated last register line. Every append is one write of a whole line under the
   * promotion lock, so, with the lock held, such a fragment is provably what a crash left behind.
   */
  private async recoverTornRegister(tenant: string): Promise<void> {
    const file = this.paths.registerFile(tenant)
    // Counted in bytes, not in decoded text: invalid UTF-8 decodes to U+FFFD, three bytes for one.
    const bytes = await this.registerBytes(file)
    if (bytes === undefined || bytes.length === 0 || bytes[bytes.length - 1] === 0x0a) return
    const keep = bytes.lastIndexOf(0x0a) + 1
    const torn = bytes.length - keep
    let handle: FileHandle | undefined
    try {
      handle = await this.fs.open(file, constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0))
      await this.fs.ftruncate(handle, keep)
      await this.fs.fsync(handle)
    } catch (error) {
      throw storeWriteError('cutting a torn last line off', file, error, 'the register is as it was')
    } finally {
      if (handle !== undefined) await this.fs.close(handle).catch(() => undefined)
    }
    this.options.say(`digline: the register ${file} ended in a torn line (${torn} bytes a crash left unterminated); it was cut off`)
  }

  baselineLocation(tenant: string, suite: string): string {
    return this.paths.baselineFile(tenant, suite)
  }

  registerLocation(tenant: string): string {
    return this.paths.registerFile(tenant)
  }

  private async baselineBytes(tenant: string, suite: string): Promise<Uint8Array | undefined> {
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
    const parsed = safeParseBaseline(value)
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

  private async restoreBaseline(tenant: string, suite: string, previous: Uint8Array | undefined): Promise<void> {
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
    let text = await this.registerText(file)
    if (text !== undefined && text !== '' && !text.endsWith('\n')) {
      text = await guardedWrite(file, () =>
        this.lockOf(tenant).holding(async () => {
          await this.recoverTornRegister(tenant)
          return this.registerText(file)
        }),
      )
    }
    if (text === undefined || text === '') return []
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
    return (await this.registerBytes(file))?.toString('utf8')
  }

  private async registerBytes(file: string): Promise<Buffer | undefined> {
    try {
      return await this.fs.readFile(file)
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
