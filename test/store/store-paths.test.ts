// Paths that lead out of the store: symlinked runs, suite and tenant directories and run files are
// refused by every operation, nothing in the store or outside it changes, and the root itself may
// be a symlink.
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { serializeRun } from '../../src/document/serialize.js'
import { PathRefusedError } from '../../src/suite/errors.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { nodeFsLayer } from '../../src/store/file/fs-layer.js'
import { StorePaths } from '../../src/store/file/paths.js'
import { createdAtSeconds, keyOf, makeRun } from '../helpers/make-run.js'
import { HOSTILE_NAMES, refusalOf } from './contract.js'
import { makeTempStore, SENTINEL_TEXT, type TempStore } from './temp-store.js'
import { snapshotTree } from './tree-snapshot.js'

describe('StorePaths', () => {
  const paths = new StorePaths('/srv/project/.digline')

  it('lays the store out as SPEC §4 says', () => {
    expect(paths.gitignoreFile()).toBe('/srv/project/.digline/.gitignore')
    expect(paths.tenantDir('acme')).toBe('/srv/project/.digline/acme')
    expect(paths.runsDir('acme')).toBe('/srv/project/.digline/acme/runs')
    expect(paths.suiteRunsDir('acme', 'capitals')).toBe('/srv/project/.digline/acme/runs/capitals')
    expect(paths.runFile('acme', 'capitals', 'k1')).toBe('/srv/project/.digline/acme/runs/capitals/k1.json')
    expect(paths.pendingDir('acme', 'capitals')).toBe('/srv/project/.digline/acme/runs/capitals/.pending')
    expect(paths.baselineFile('acme', 'capitals')).toBe('/srv/project/.digline/acme/baselines/capitals.json')
    expect(paths.registerFile('acme')).toBe('/srv/project/.digline/acme/register.jsonl')
    expect(paths.removedDir('acme')).toBe('/srv/project/.digline/acme/removed')
    expect(paths.nameTableDir('acme')).toBe('/srv/project/.digline/acme/name-table')
  })

  it.each(HOSTILE_NAMES.map((name) => [JSON.stringify(name).slice(0, 30), name]))('refuses the hostile name %s in every position', (_shown, name) => {
    const calls = [
      () => paths.tenantDir(name),
      () => paths.suiteRunsDir('acme', name),
      () => paths.runFile('acme', 'capitals', name),
      () => paths.pendingDir(name, 'capitals'),
      () => paths.baselineFile('acme', name),
      () => paths.registerFile(name),
      () => paths.removedDir(name),
      () => paths.nameTableDir(name),
    ]
    for (const call of calls) expect(call).toThrow(PathRefusedError)
  })

  it('refuses a target that is not under the root, before looking at the disk', async () => {
    await expect(paths.assertInsideStore(nodeFsLayer, '/srv/project/elsewhere')).rejects.toBeInstanceOf(PathRefusedError)
    await expect(paths.assertInsideStore(nodeFsLayer, '/srv/project/.digline/../x')).rejects.toBeInstanceOf(PathRefusedError)
    await expect(paths.assertInsideStore(nodeFsLayer, '/srv/project/.digline-other/x')).rejects.toBeInstanceOf(PathRefusedError)
  })
})

describe('symlinks that lead out of the store', () => {
  let temp: TempStore
  const doc = makeRun()
  const sibling = makeRun({ createdAt: createdAtSeconds(1)[0] })

  beforeEach(async () => {
    temp = makeTempStore()
    await temp.store.writeRun(doc)
    await temp.store.writeRun(sibling)
  })
  afterEach(() => temp.cleanup())

  /** Every operation on acme/capitals is refused, and neither the store nor `outside` changes. */
  async function everyOperationRefused(options: { directoryLinked: boolean }): Promise<void> {
    const before = temp.snapshot()
    const store = temp.store
    await refusalOf(store.writeRun(doc), PathRefusedError)
    await refusalOf(store.readRun('acme', 'capitals', keyOf(doc)), PathRefusedError)
    if (options.directoryLinked) {
      await refusalOf(store.writeRun(makeRun({ createdAt: createdAtSeconds(3)[2] })), PathRefusedError)
      await refusalOf(store.readRun('acme', 'capitals', keyOf(sibling)), PathRefusedError)
      await refusalOf(store.listRuns('acme', 'capitals'), PathRefusedError)
      await refusalOf(store.scanRuns('acme', 'capitals'), PathRefusedError)
      await refusalOf(store.latestKey('acme', 'capitals'), PathRefusedError)
    }
    expect(temp.snapshot()).toEqual(before)
    expect(readFileSync(temp.sentinel, 'utf8')).toBe(SENTINEL_TEXT)
  }

  /** Moves a directory of the store outside and puts a symlink to it in its place. */
  function replaceWithSymlink(inside: string, outsideName: string): void {
    const outsideDir = join(temp.outside, outsideName)
    renameSync(inside, outsideDir)
    symlinkSync(outsideDir, inside)
  }

  it('refuses a symlinked tenant directory', async () => {
    replaceWithSymlink(join(temp.root, 'acme'), 'tenant')
    await everyOperationRefused({ directoryLinked: true })
  })

  it('refuses a symlinked runs directory', async () => {
    replaceWithSymlink(join(temp.root, 'acme', 'runs'), 'runs')
    await everyOperationRefused({ directoryLinked: true })
  })

  it('refuses a symlinked suite directory', async () => {
    replaceWithSymlink(join(temp.root, 'acme', 'runs', 'capitals'), 'capitals')
    await everyOperationRefused({ directoryLinked: true })
  })

  it('refuses a symlinked suite directory that does not exist inside yet (a dangling link)', async () => {
    symlinkSync(join(temp.outside, 'not-yet'), join(temp.root, 'acme', 'runs', 'rivers'))
    const before = temp.snapshot()
    await refusalOf(temp.store.writeRun(makeRun({ suite: 'rivers' })), PathRefusedError)
    await refusalOf(temp.store.listRuns('acme', 'rivers'), PathRefusedError)
    expect(temp.snapshot()).toEqual(before)
  })

  it('refuses a run file replaced by a symlink to a file outside: the destination is untouched', async () => {
    const file = join(temp.root, 'acme', 'runs', 'capitals', `${keyOf(doc)}.json`)
    const outsideRun = join(temp.outside, 'run.json')
    writeFileSync(outsideRun, serializeRun(doc))
    unlinkSync(file)
    symlinkSync(outsideRun, file)
    await everyOperationRefused({ directoryLinked: false })

    const before = temp.snapshot()
    const listing = await temp.store.listRuns('acme', 'capitals')
    expect(listing.runs.map((r) => [r.key, r.refusal?.name])).toEqual([
      [keyOf(sibling), undefined],
      [undefined, 'PathRefusedError'],
    ])
    const scan = await temp.store.scanRuns('acme', 'capitals')
    expect(scan.runs).toEqual([sibling])
    expect(scan.refused.map((r) => r.refusal.name)).toEqual(['PathRefusedError'])
    expect(await temp.store.latestKey('acme', 'capitals')).toBe(keyOf(sibling))
    expect(temp.snapshot()).toEqual(before)
    expect(readFileSync(outsideRun, 'utf8')).toBe(serializeRun(doc))
  })

  it('refuses to write while .gitignore is a symlink, and writes nothing through it', async () => {
    rmSync(join(temp.root, '.gitignore'))
    symlinkSync(temp.sentinel, join(temp.root, '.gitignore'))
    const before = temp.snapshot()
    await refusalOf(temp.store.writeRun(makeRun({ suite: 'rivers' })), PathRefusedError)
    expect(temp.snapshot()).toEqual(before)
    expect(readFileSync(temp.sentinel, 'utf8')).toBe(SENTINEL_TEXT)
  })

  it('accepts a root that is itself a symlink', async () => {
    const linkedRoot = join(temp.dir, 'linked-store')
    symlinkSync(temp.root, linkedRoot)
    const store = new FileResultStore({ root: linkedRoot })
    const third = makeRun({ createdAt: createdAtSeconds(2)[1] })
    await store.writeRun(third)
    expect(await store.readRun('acme', 'capitals', keyOf(third))).toEqual(third)
    expect((await store.listRuns('acme', 'capitals')).runs.map((r) => r.refusal)).toEqual([undefined, undefined, undefined])
  })

  it('accepts a root whose parent directory does not exist yet, creating it', async () => {
    const store = new FileResultStore({ root: join(temp.dir, 'fresh', 'deeper', '.digline') })
    await store.writeRun(doc)
    expect(await store.latestKey('acme', 'capitals')).toBe(keyOf(doc))
    expect(snapshotTree(join(temp.dir, 'fresh')).map((e) => e.path)).toContain('deeper/.digline/.gitignore')
  })

  it('refuses a hostile tenant without touching the directory it would name', async () => {
    mkdirSync(join(temp.outside, 'runs'))
    const before = temp.snapshot()
    await refusalOf(temp.store.writeRun(makeRun({ tenant: '..' })), PathRefusedError)
    await refusalOf(temp.store.writeRun(makeRun({ tenant: temp.outside })), PathRefusedError)
    await refusalOf(temp.store.writeRun(makeRun({ suite: '../../../outside' })), PathRefusedError)
    expect(temp.snapshot()).toEqual(before)
  })
})
