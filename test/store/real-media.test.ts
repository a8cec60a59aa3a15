// SPEC §9 on real media: a full disk (a 64 KiB tmpfs), a read-only filesystem, a permission error
// (a child process running as `nobody`) and a target replaced by a symlink. Each failure is a named
// error, the previous state stays byte-identical and no temp file is left. These tests need root to
// mount; without it they fail rather than skip.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serializeRun } from '../../src/document/serialize.js'
import { PathRefusedError } from '../../src/suite/errors.js'
import { StoreWriteError } from '../../src/store/errors.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { createdAtSeconds, keyOf, makeRun } from '../helpers/make-run.js'
import { compileStoreForChild, writeRunAsNobody, type ChildStore } from './child-store.js'
import { refusalOf } from './contract.js'
import { snapshotTree, tempFilesIn } from './tree-snapshot.js'

const mounted: string[] = []
let base: string

function mountTmpfs(name: string, options: string): string {
  const dir = join(base, name)
  mkdirSync(dir)
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir])
  mounted.push(dir)
  return dir
}

/** A document of about 100 KB with the same key as makeRun()'s default. */
function hundredKilobyteRun() {
  const doc = makeRun({ results: 300, reasonLength: 100 })
  const size = Buffer.byteLength(serializeRun(doc))
  expect(size).toBeGreaterThan(90_000)
  expect(size).toBeLessThan(150_000)
  return doc
}

async function writeFails(store: FileResultStore, doc: ReturnType<typeof makeRun>, errno: string): Promise<StoreWriteError> {
  const error = (await refusalOf(store.writeRun(doc), StoreWriteError)) as StoreWriteError
  expect(error.errno).toBe(errno)
  expect(error.exitCode).toBe(2)
  expect(error.message).toContain(errno)
  return error
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'digline-media-'))
  chmodSync(base, 0o755)
})

afterAll(() => {
  for (const dir of mounted.reverse()) execFileSync('umount', [dir])
  rmSync(base, { recursive: true, force: true })
})

describe('a disk that fills up (64 KiB tmpfs)', () => {
  it('fails with StoreWriteError ENOSPC, keeps the previous document byte-identical and leaves no temp file', async () => {
    const mnt = mountTmpfs('full', 'size=64k')
    const store = new FileResultStore({ root: join(mnt, '.digline') })
    const previous = makeRun({ results: 3 })
    await store.writeRun(previous)
    const file = join(mnt, '.digline', 'acme', 'runs', 'capitals', `${keyOf(previous)}.json`)
    const previousBytes = readFileSync(file)
    const before = snapshotTree(mnt)

    const error = await writeFails(store, hundredKilobyteRun(), 'ENOSPC')
    expect(error.message).toContain(file)
    expect(error.message).toContain('next: free space')
    expect(readFileSync(file).equals(previousBytes)).toBe(true)
    expect(snapshotTree(mnt)).toEqual(before)
    expect(tempFilesIn(snapshotTree(mnt))).toEqual([])
    expect(await store.readRun('acme', 'capitals', keyOf(previous))).toEqual(previous)
  })

  it('leaves no new file and no new directory when a new run, suite or tenant does not fit', async () => {
    const mnt = mountTmpfs('full-new', 'size=64k')
    const store = new FileResultStore({ root: join(mnt, '.digline') })
    await store.writeRun(makeRun())
    const before = snapshotTree(mnt)
    const big = hundredKilobyteRun()
    await writeFails(store, { ...big, created_at: createdAtSeconds(1)[0]! }, 'ENOSPC')
    await writeFails(store, { ...big, suite: 'rivers' }, 'ENOSPC')
    await writeFails(store, { ...big, tenant: 'globex' }, 'ENOSPC')
    expect(snapshotTree(mnt)).toEqual(before)
  })

  it('undoes the directories and .gitignore it created when the first run of a fresh store does not fit', async () => {
    const mnt = mountTmpfs('full-fresh', 'size=64k')
    const store = new FileResultStore({ root: join(mnt, '.digline') })
    await writeFails(store, makeRun({ results: 1000, reasonLength: 100 }), 'ENOSPC')
    expect(snapshotTree(mnt)).toEqual([{ path: '.', type: 'dir' }])
  })
})

describe('a read-only store', () => {
  it('fails with StoreWriteError EROFS after a remount read-only, and nothing changes', async () => {
    const mnt = mountTmpfs('readonly', 'size=64k')
    const store = new FileResultStore({ root: join(mnt, '.digline') })
    const previous = makeRun()
    await store.writeRun(previous)
    execFileSync('mount', ['-o', 'remount,ro', mnt])
    const before = snapshotTree(mnt)
    const error = await writeFails(store, makeRun({ results: 9 }), 'EROFS')
    expect(error.message).toContain('next: the store is on a read-only filesystem')
    await writeFails(store, makeRun({ suite: 'rivers' }), 'EROFS')
    await writeFails(store, makeRun({ tenant: 'globex' }), 'EROFS')
    expect(snapshotTree(mnt)).toEqual(before)
    expect(await store.readRun('acme', 'capitals', keyOf(previous))).toEqual(previous)
  })

  it('fails with StoreWriteError EROFS on a filesystem mounted read-only', async () => {
    const mnt = mountTmpfs('readonly-fresh', 'ro,size=64k')
    await writeFails(new FileResultStore({ root: join(mnt, '.digline') }), makeRun(), 'EROFS')
    expect(snapshotTree(mnt)).toEqual([{ path: '.', type: 'dir' }])
  })
})

describe('a permission error (a process running as nobody)', () => {
  let child: ChildStore
  beforeAll(() => {
    child = compileStoreForChild()
  })
  afterAll(() => child.cleanup())

  function storeOwnedByRoot(name: string): { root: string; dir: string } {
    const dir = join(base, name)
    mkdirSync(dir, { mode: 0o755 })
    return { dir, root: join(dir, '.digline') }
  }

  it('fails with StoreWriteError EACCES in a 0555 suite directory, and nothing changes', async () => {
    const { dir, root } = storeOwnedByRoot('perm-suite')
    const previous = makeRun()
    await new FileResultStore({ root }).writeRun(previous)
    execFileSync('chmod', ['-R', 'a+rX', dir])
    chmodSync(join(root, 'acme', 'runs', 'capitals'), 0o555)
    const before = snapshotTree(dir)

    const result = writeRunAsNobody(child, root, makeRun({ results: 7 }))
    expect(result).toMatchObject({ ok: false, name: 'StoreWriteError', errno: 'EACCES' })
    expect(result.message).toContain('next: give the user running digline write permission')
    expect(snapshotTree(dir)).toEqual(before)
  })

  it('fails with StoreWriteError EACCES when the tenant directory cannot be created, and nothing changes', async () => {
    const { dir, root } = storeOwnedByRoot('perm-root')
    await new FileResultStore({ root }).writeRun(makeRun())
    execFileSync('chmod', ['-R', 'a+rX', dir])
    chmodSync(root, 0o555)
    const before = snapshotTree(dir)
    expect(writeRunAsNobody(child, root, makeRun({ tenant: 'globex' }))).toMatchObject({ ok: false, name: 'StoreWriteError', errno: 'EACCES' })
    expect(snapshotTree(dir)).toEqual(before)
  })

  it('writes as nobody where nobody may write (the child process itself works)', async () => {
    const { dir, root } = storeOwnedByRoot('perm-ok')
    mkdirSync(root, { mode: 0o777 })
    chmodSync(root, 0o777)
    expect(writeRunAsNobody(child, root, makeRun())).toEqual({ ok: true })
    expect(await new FileResultStore({ root }).readRun('acme', 'capitals', keyOf(makeRun()))).toEqual(makeRun())
    expect(tempFilesIn(snapshotTree(dir))).toEqual([])
  })
})

describe('a target replaced by a symlink', () => {
  it('is refused with PathRefusedError, and the symlink’s destination is untouched', async () => {
    const dir = join(base, 'symlinked-target')
    mkdirSync(dir)
    const root = join(dir, '.digline')
    const store = new FileResultStore({ root })
    const doc = makeRun()
    await store.writeRun(doc)
    const file = join(root, 'acme', 'runs', 'capitals', `${keyOf(doc)}.json`)
    const destination = join(base, 'symlink-destination.json')
    writeFileSync(destination, 'the symlink points here\n')
    unlinkSync(file)
    symlinkSync(destination, file)
    const before = snapshotTree(dir)
    await refusalOf(store.writeRun(makeRun({ results: 5 })), PathRefusedError)
    expect(snapshotTree(dir)).toEqual(before)
    expect(readFileSync(destination, 'utf8')).toBe('the symlink points here\n')
  })
})
