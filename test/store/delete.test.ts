// deleteRun on a store that really writes: ADR 0044's test plan, case by case (docs/delete.md).
import { readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { logicalPath } from '../helpers/fault-fs.js'
import { spawn } from 'node:child_process'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DirectoryUnreadableError } from '../../src/store/file/errors.js'
import { LiveRunError, MisfiledRunError, PromotedRunError, RunRemovedError, SuiteMismatchError, UnknownSchemaVersionError, UnreadableRunError } from '../../src/store/errors.js'
import { PathRefusedError } from '../../src/suite/errors.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { nodeFsLayer } from '../../src/store/file/fs-layer.js'
import { serializeRun } from '../../src/document/serialize.js'
import { refusalOf } from './contract.js'
import { createdAt, errno, expectGone, fileRun, GONE, hookedFs, promote, runDoc, TENANT, visibility, writeNameTable } from './delete-fixtures.js'
import { makeTempStore, type TempStore } from './temp-store.js'

let temp: TempStore
let store: FileResultStore
beforeEach(() => {
  temp = makeTempStore()
  store = temp.store
})
afterEach(() => temp.cleanup())

const runsFile = (suite: string, name: string) => join(temp.root, TENANT, 'runs', suite, name)
const legFile = (suite: string, key: string, leg: number) => join(temp.root, TENANT, 'runs', suite, '.pending', `${key}.${leg}.jsonl`)

describe('the refusals come before the first step, and leave every file as it was', () => {
  it('a promoted run with legs and a replay: PromotedRunError naming the baseline and the promote command', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 2 })
    await fileRun(store, { suite: 't', at: 2, replayOf: { suite: 's', key: k } })
    await promote(store, 's', k)
    const before = temp.snapshot()
    const refusal = await refusalOf(store.deleteRun(TENANT, 's', k), PromotedRunError)
    expect(refusal.message).toContain(join(temp.root, TENANT, 'baselines', 's.json'))
    expect(refusal.message).toContain(`digline promote --suite s --run NEW_KEY --replacing ${k}`)
    expect(temp.snapshot()).toEqual(before)
  })

  it('the orphaned baseline: no artifact of the run is left, and the same sentence refuses', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    await promote(store, 's', k)
    unlinkSync(runsFile('s', `${k}.json`))
    const before = temp.snapshot()
    const refusal = await refusalOf(store.deleteRun(TENANT, 's', k), PromotedRunError)
    expect(refusal.message).toContain(`--replacing ${k}`)
    expect(temp.snapshot()).toEqual(before)
  })

  it('a file under KEY that is not JSON is refused and stays', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 1 })
    writeFileSync(runsFile('s', `${k}.json`), '{ "created_at": "2026-')
    const before = temp.snapshot()
    await refusalOf(store.deleteRun(TENANT, 's', k), UnreadableRunError)
    expect(temp.snapshot()).toEqual(before)
  })

  it('a file under KEY that lacks created_at or config_hash is refused and stays', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    writeFileSync(runsFile('s', `${k}.json`), JSON.stringify({ tenant: TENANT, suite: 's', created_at: createdAt(1) }))
    const before = temp.snapshot()
    const refusal = await refusalOf(store.deleteRun(TENANT, 's', k), UnreadableRunError)
    expect(refusal.message).toContain('lacks created_at or config_hash')
    expect(temp.snapshot()).toEqual(before)
  })

  it('a misfiled file under KEY (another run inside) is refused with MisfiledRunError and stays', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    writeFileSync(runsFile('s', `${k}.json`), serializeRun(runDoc({ suite: 's', at: 9 })))
    const before = temp.snapshot()
    await refusalOf(store.deleteRun(TENANT, 's', k), MisfiledRunError)
    expect(temp.snapshot()).toEqual(before)
  })

  it('a file under KEY of another suite is refused with SuiteMismatchError and stays', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    writeFileSync(runsFile('s', `${k}.json`), serializeRun(runDoc({ suite: 'other', at: 1 })))
    const before = temp.snapshot()
    await refusalOf(store.deleteRun(TENANT, 's', k), SuiteMismatchError)
    expect(temp.snapshot()).toEqual(before)
  })

  it('a runs directory of the tenant that cannot be listed refuses the delete before any removal', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 1 })
    await fileRun(store, { suite: 't', at: 2 })
    const tDir = join(temp.root, TENANT, 'runs', 't')
    const denying = new FileResultStore({
      root: temp.root,
      fs: hookedFs(nodeFsLayer, (op, path) => {
        if (op === 'readdir' && path === tDir) throw errno('EACCES')
      }),
    })
    const before = temp.snapshot()
    const refusal = await refusalOf(denying.deleteRun(TENANT, 's', k), DirectoryUnreadableError)
    expect(refusal.message).toContain(tDir)
    expect(temp.snapshot()).toEqual(before)
  })

  it('a symlinked suite directory in the tenant is a path out of the store: refused', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    symlinkSync(temp.outside, join(temp.root, TENANT, 'runs', 'elsewhere'))
    const before = temp.snapshot()
    await refusalOf(store.deleteRun(TENANT, 's', k), PathRefusedError)
    expect(temp.snapshot()).toEqual(before)
  })

  it('unsafe names are refused before any I/O', async () => {
    for (const [tenant, suite, key] of [
      ['..', 's', 'k'],
      [TENANT, 'a/b', 'k'],
      [TENANT, 's', '../k'],
    ]) {
      await refusalOf(store.deleteRun(tenant!, suite!, key!), PathRefusedError)
    }
  })

  it('a leg held by a live process on this host refuses the delete (LiveRunError)', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' })
    try {
      const k = await fileRun(store, { suite: 's', at: 1, legs: 1, host: hostname(), pid: child.pid! })
      const before = temp.snapshot()
      const refusal = await refusalOf(store.deleteRun(TENANT, 's', k), LiveRunError)
      expect(refusal.message).toContain(`process ${child.pid}`)
      expect(temp.snapshot()).toEqual(before)
    } finally {
      child.kill('SIGKILL')
    }
  })
})

describe('what is removed', () => {
  it('a replaced baseline: the old run is removed, and the baseline and the register stay byte for byte', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    const k2 = await fileRun(store, { suite: 's', at: 2 })
    await promote(store, 's', k)
    await promote(store, 's', k2, k)
    const baseline = readFileSync(join(temp.root, TENANT, 'baselines', 's.json'))
    const register = readFileSync(join(temp.root, TENANT, 'register.jsonl'))
    expect(register.toString()).toContain(k)
    const removal = await store.deleteRun(TENANT, 's', k)
    expect(removal.run.document).toBe(true)
    expect(readFileSync(join(temp.root, TENANT, 'baselines', 's.json'))).toEqual(baseline)
    expect(readFileSync(join(temp.root, TENANT, 'register.jsonl'))).toEqual(register)
    await expectGone(store, [{ suite: 's', key: k }])
  })

  it('the legs-only run: every leg removed, no document, created_at read from a leg header', async () => {
    const k = await fileRun(store, { suite: 's', at: 7, legs: 3, document: false })
    const removal = await store.deleteRun(TENANT, 's', k)
    expect(removal.run).toEqual({ ref: { tenant: TENANT, suite: 's', key: k }, created_at: createdAt(7), legs: 3, document: false })
    expect(removal.nothing).toBe(false)
    await expectGone(store, [{ suite: 's', key: k }])
  })

  it('the chain across the tenant: K in s, R1 of K in t, R2 of R1 in s, removed R2, R1, K; each one’s legs before its document', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 2 })
    const r1 = await fileRun(store, { suite: 't', at: 2, legs: 1, replayOf: { suite: 's', key: k } })
    const r2 = await fileRun(store, { suite: 's', at: 3, replayOf: { suite: 't', key: r1 } })
    const bystander = await fileRun(store, { suite: 't', at: 4 })
    const unlinked: string[] = []
    const recording = new FileResultStore({
      root: temp.root,
      fs: hookedFs(nodeFsLayer, (op, path) => {
        if (op === 'unlink' && path !== undefined) unlinked.push(path.slice(temp.root.length + 1))
      }),
    })
    const removal = await recording.deleteRun(TENANT, 's', k)
    expect(removal.replays.map((r) => [r.ref.suite, r.ref.key])).toEqual([
      ['s', r2],
      ['t', r1],
    ])
    expect(unlinked).toEqual([
      `${TENANT}/runs/s/${r2}.json`,
      `${TENANT}/runs/t/.pending/${r1}.1.jsonl`,
      `${TENANT}/runs/t/${r1}.json`,
      `${TENANT}/runs/s/.pending/${k}.1.jsonl`,
      `${TENANT}/runs/s/.pending/${k}.2.jsonl`,
      `${TENANT}/runs/s/${k}.json`,
    ])
    await expectGone(store, [
      { suite: 's', key: k },
      { suite: 't', key: r1 },
      { suite: 's', key: r2 },
    ])
    expect((await visibility(store, 't', bystander)).read).toBe(true)
  })

  it('a misfiled replay of K is removed and named by its own key, and the chain goes on from that key', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    const r1 = runDoc({ suite: 't', at: 2, replayOf: { suite: 's', key: k } })
    temp.plant(TENANT, 't', 'not-its-key', serializeRun(r1))
    const r2 = await fileRun(store, { suite: 't', at: 3, replayOf: { suite: 't', key: `20260301T100002000001Z-3f9a0c1b2d4e` } })
    const removal = await store.deleteRun(TENANT, 's', k)
    expect(removal.replays.map((r) => r.ref.key)).toEqual([r2, '20260301T100002000001Z-3f9a0c1b2d4e'])
    expect(temp.snapshot().some((e) => e.path.endsWith('not-its-key.json'))).toBe(false)
  })

  it('two documents under one key, both on the chain: both removed, and the key named twice', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    const r = await fileRun(store, { suite: 't', at: 2, replayOf: { suite: 's', key: k } })
    writeFileSync(runsFile('t', 'copy.json'), serializeRun(runDoc({ suite: 't', at: 2, replayOf: { suite: 's', key: k } })))
    const removal = await store.deleteRun(TENANT, 's', k)
    expect(removal.replays.map((x) => x.ref.key)).toEqual([r, r])
    await expectGone(store, [{ suite: 't', key: r }])
  })

  it('two documents under one key, only the misfiled one on the chain: the other stays and is still read under that key', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    const other = await fileRun(store, { suite: 't', at: 2 })
    writeFileSync(runsFile('t', 'copy.json'), serializeRun(runDoc({ suite: 't', at: 2, replayOf: { suite: 's', key: k } })))
    const removal = await store.deleteRun(TENANT, 's', k)
    expect(removal.replays.map((x) => x.ref.key)).toEqual([other])
    expect((await store.readRun(TENANT, 't', other)).rejudged_from).toBeUndefined()
  })

  it('a misfiled copy of the run itself, in its own suite, is removed with it', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 1 })
    temp.plant(TENANT, 's', 'renamed-by-hand', serializeRun(runDoc({ suite: 's', at: 1 })))
    expect((await store.listRuns(TENANT, 's')).runs.filter((r) => r.key === k)).toHaveLength(2)
    const removal = await store.deleteRun(TENANT, 's', k)
    expect(removal.run).toMatchObject({ document: true, legs: 1 })
    expect((await store.listRuns(TENANT, 's')).runs).toEqual([])
  })

  it('an older schema under KEY is removed, its created_at read', async () => {
    const { rules: _rules, observed: _observed, ...older } = runDoc({ suite: 's', at: 5 })
    const k = '20260301T100005000001Z-3f9a0c1b2d4e'
    temp.plant(TENANT, 's', k, JSON.stringify({ ...older, schema_version: 0 }))
    await refusalOf(store.readRun(TENANT, 's', k), UnknownSchemaVersionError)
    const removal = await store.deleteRun(TENANT, 's', k)
    expect(removal.run).toMatchObject({ document: true, created_at: createdAt(5) })
    await expectGone(store, [{ suite: 's', key: k }])
  })

  it('an unreadable document is skipped and counted in unread, whatever it holds', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    temp.plant(TENANT, 't', 'garbage', '{ "rejudged_from": ')
    symlinkSync(temp.sentinel, runsFile('t', 'linked.json'))
    const removal = await store.deleteRun(TENANT, 's', k)
    expect(removal.unread).toBe(2)
    expect(readFileSync(runsFile('t', 'garbage.json'), 'utf8')).toBe('{ "rejudged_from": ')
    expect(readFileSync(temp.sentinel, 'utf8')).toContain('outside')
  })

  it('nothing to remove: nothing is true, and no record is written', async () => {
    const removal = await store.deleteRun(TENANT, 's', '20260301T100001000001Z-3f9a0c1b2d4e')
    expect(removal).toMatchObject({ nothing: true, replays: [], unread: 0, alreadyRemovedAt: undefined })
    expect(temp.snapshot().some((e) => e.path.includes('removed'))).toBe(false)
  })

  it('the name table survives a delete of every run in the tenant, and so do the baselines and the register', async () => {
    const names = writeNameTable(temp.root)
    const keys = [await fileRun(store, { suite: 's', at: 1 }), await fileRun(store, { suite: 't', at: 2 }), await fileRun(store, { suite: 't', at: 3, legs: 1 })]
    const promoted = await fileRun(store, { suite: 'u', at: 4 })
    await promote(store, 'u', promoted)
    const kept = temp.snapshot().filter((e) => !e.path.includes('/runs/'))
    for (const [i, key] of keys.entries()) await store.deleteRun(TENANT, i === 0 ? 's' : 't', key)
    expect(readFileSync(names, 'utf8')).toContain('capitals')
    const after = temp.snapshot().filter((e) => !e.path.includes('/runs/') && !e.path.includes('/removed'))
    expect(after).toEqual(kept)
  })
})

describe('removal records', () => {
  it('a record per run is written under removed/<suite>/, and a repeat answers when the key was removed', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 1 })
    const r = await fileRun(store, { suite: 't', at: 2, replayOf: { suite: 's', key: k } })
    await store.deleteRun(TENANT, 's', k)
    const record = JSON.parse(readFileSync(join(temp.root, TENANT, 'removed', 's', `${k}.json`), 'utf8'))
    expect(Object.keys(record)).toEqual(['removal_version', 'tenant', 'suite', 'key', 'created_at', 'removed_at', 'removed', 'replay_of', 'requested'])
    expect(record).toMatchObject({
      tenant: TENANT,
      suite: 's',
      key: k,
      created_at: createdAt(1),
      removed: { document: true, legs: 1 },
      replay_of: null,
      requested: { suite: 's', key: k },
    })
    const replayRecord = JSON.parse(readFileSync(join(temp.root, TENANT, 'removed', 't', `${r}.json`), 'utf8'))
    expect(replayRecord).toMatchObject({ replay_of: { suite: 's', key: k }, requested: { suite: 's', key: k } })
    const again = await store.deleteRun(TENANT, 's', k)
    expect(again).toMatchObject({ nothing: true, alreadyRemovedAt: record.removed_at })
  })

  it('writing a document, opening a leg and reading a removed key are refused with RunRemovedError', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    await store.deleteRun(TENANT, 's', k)
    const before = temp.snapshot()
    await refusalOf(store.writeRun(runDoc({ suite: 's', at: 1 })), RunRemovedError)
    await refusalOf(fileRun(store, { suite: 's', at: 1, legs: 1, document: false }), RunRemovedError)
    await refusalOf(store.readRun(TENANT, 's', k), RunRemovedError)
    await refusalOf(store.writeRun(runDoc({ suite: 't', at: 8, replayOf: { suite: 's', key: k } })), RunRemovedError)
    expect(temp.snapshot()).toEqual(before)
  })

  it('a document published after the delete planned is taken back by its writer (the check after publishing)', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 1, document: false })
    const target = runsFile('s', `${k}.json`)
    let deleted = false
    const racing = new FileResultStore({
      root: temp.root,
      fs: {
        ...nodeFsLayer,
        rename: async (from, to) => {
          if (logicalPath(to) === target && !deleted) {
            deleted = true
            expect((await store.deleteRun(TENANT, 's', k)).run.legs).toBe(1)
          }
          return nodeFsLayer.rename(from, to)
        },
      },
    })
    await refusalOf(racing.writeRun(runDoc({ suite: 's', at: 1 })), RunRemovedError)
    expect(deleted).toBe(true)
    expect(await visibility(store, 's', k)).toEqual(GONE)
  })

  it('a leg created after the delete planned is taken back by its writer', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 1, document: false })
    const leg2 = legFile('s', k, 2)
    let deleted = false
    const racing = new FileResultStore({
      root: temp.root,
      fs: {
        ...nodeFsLayer,
        // The leg gets its name by a link from its temp file, header written (ADR 0560).
        link: async (from, to) => {
          if (logicalPath(to) === leg2 && !deleted) {
            deleted = true
            await store.deleteRun(TENANT, 's', k)
          }
          return nodeFsLayer.link(from, to)
        },
      },
    })
    const doc = runDoc({ suite: 's', at: 1 })
    const { journalHeader } = await import('./journal-fixtures.js')
    await refusalOf(racing.openJournal(journalHeader({ suite: 's', created_at: doc.created_at, config_hash: doc.config_hash }), 2), RunRemovedError)
    expect(deleted).toBe(true)
    expect(await visibility(store, 's', k)).toEqual(GONE)
  })

  it('a promotion that raced the plan: the delete withdraws its records and refuses, and nothing was removed', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 1 })
    const baselineFile = join(temp.root, TENANT, 'baselines', 's.json')
    let promoted = false
    const racing = new FileResultStore({
      root: temp.root,
      fs: {
        ...nodeFsLayer,
        rename: async (from, to) => {
          // the promotion lands right after this delete's first record
          const result = await nodeFsLayer.rename(from, to)
          if (logicalPath(to).includes(`${join('removed', 's')}`) && !promoted) {
            promoted = true
            await promote(store, 's', k)
          }
          return result
        },
      },
    })
    const refusal = await refusalOf(racing.deleteRun(TENANT, 's', k), PromotedRunError)
    expect(refusal.message).toContain(baselineFile)
    expect((await visibility(store, 's', k)).read).toBe(true)
    expect((await store.pending(TENANT, 's')).map((p) => p.legs)).toEqual([[1]])
    expect(await store.removalOf(TENANT, 's', k)).toBeUndefined()
  })
})
