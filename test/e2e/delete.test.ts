// `digline delete` through the real bin: what it says for each outcome (never "removed" of what was
// not there), its refusals (64), and the removed key refused afterwards by resume, promote and
// rejudge. The store is filled through the store library, as a run would leave it.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, test } from 'vitest'
import { serializeRun } from '../../src/document/serialize.js'
import { FileRemovalRecords } from '../../src/store/file/removal-records.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { nodeFsLayer } from '../../src/store/file/fs-layer.js'
import { snapshotTree } from '../store/tree-snapshot.js'
import { createdAt, fileRun, promote, runDoc, TENANT } from '../store/delete-fixtures.js'
import { keyOf } from '../helpers/make-run.js'
import { defaultConfig, makeProject, type Project } from '../helpers/project.js'

/** Legs written on another machine sharing the store: whether their writer lives cannot be known here. */
const ELSEWHERE = 'ci-runner-2'
const NOT_READ = (key: string) => `2 documents in tenant ${TENANT} could not be read. Whether any of them was a replay of ${key} is not known, and none of them was removed.`

let project: Project
let store: FileResultStore
beforeEach(() => {
  // No Vitest config: the tenant and store come from the flags, and no config is loaded.
  project = makeProject()
  rmSync(join(project.dir, 'vitest.config.ts'))
  store = new FileResultStore({ root: join(project.dir, '.digline') })
})

async function del(suite: string, key: string) {
  const result = await project.digline(['delete', '--suite', suite, '--run', key, '--tenant', TENANT])
  return { ...result, stdout: result.stdout.trimEnd() }
}
const storeTree = () => snapshotTree(join(project.dir, '.digline'))

describe('what it says', () => {
  test('a run and its replay across suites: each named, leaves first; repeated, it was already removed', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 1, host: ELSEWHERE })
    const r = await fileRun(store, { suite: 't', at: 2, replayOf: { suite: 's', key: k } })
    const result = await del('s', k)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.split('\n').slice(0, 3)).toEqual([
      `Deleted run ${k} of suite s (tenant ${TENANT}) and its replays, leaves first:`,
      `  replay ${r} of suite t: its document removed`,
      `  run ${k} of suite s: its document and 1 journal leg removed`,
    ])
    const again = await del('s', k)
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(
      new RegExp(`^Run ${k} of suite s \\(tenant ${TENANT}\\) was already removed at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; nothing is filed under it now, and nothing was removed\\.$`),
    )
  })

  test('nothing to remove: exit 0, and no word claims a removal', async () => {
    const result = await del('s', keyOf(runDoc({ suite: 's', at: 1 })))
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/^There is no run \S+ in suite s of tenant acme to remove: .* Nothing was removed\.$/)
    expect(result.stdout).not.toMatch(/Deleted|removed at|its document|leg removed/)
  })

  test('unreadable documents: the delete goes on and says the sentence that claims nothing about it', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    await fileRun(store, { suite: 't', at: 5 })
    project.write('.digline/acme/runs/t/broken.json', '{ "rejudged_from": "')
    project.write('.digline/acme/runs/u/also broken.json', '[]')
    const result = await del('s', k)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.split('\n').at(-1)).toBe(NOT_READ(k))
  })

  test('a misfiled replay whose key another document also holds: the other is named as still filed', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    const other = await fileRun(store, { suite: 't', at: 2 })
    project.write('.digline/acme/runs/t/by-hand.json', serializeRun(runDoc({ suite: 't', at: 2, replayOf: { suite: 's', key: k } })))
    const result = await del('s', k)
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain(
      `  replay ${other} of suite t: its document removed\n    another document is still filed under ${other} in suite t; it is not a replay of ${k}, and it was not removed`,
    )
  })
})

describe('refused (64), nothing changed', () => {
  test('--run latest, --force, and a missing --run', async () => {
    const k = await fileRun(store, { suite: 's', at: 1 })
    const before = storeTree()
    for (const args of [
      ['delete', '--suite', 's', '--run', 'latest'],
      ['delete', '--suite', 's', '--run', k, '--force'],
      ['delete', '--suite', 's'],
    ]) {
      const result = await project.digline([...args, '--tenant', TENANT])
      expect(result.code, args.join(' ')).toBe(64)
      expect(result.stderr).toContain('UsageError')
    }
    expect(storeTree()).toEqual(before)
  })

  test('the run under the baseline: PromotedRunError names the promote command to run first', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 1, host: ELSEWHERE })
    await promote(store, 's', k)
    const before = storeTree()
    const result = await del('s', k)
    expect(result.code).toBe(64)
    expect(result.stderr).toContain(`refused PromotedRunError: refused to delete run ${k} of suite s`)
    expect(result.stderr).toContain(`digline promote --suite s --run NEW_KEY --replacing ${k}`)
    expect(storeTree()).toEqual(before)
  })
})

describe('a removed key is refused by every writer that names it', () => {
  test('resume (during an interrupted delete and after it), promote and rejudge: RunRemovedError', async () => {
    const k = await fileRun(store, { suite: 's', at: 1, legs: 2, document: false, host: ELSEWHERE })
    // An interrupted delete: its record is written, the legs are still there.
    await new FileRemovalRecords(store.paths, nodeFsLayer).write({
      removal_version: 1,
      tenant: TENANT,
      suite: 's',
      key: k,
      created_at: createdAt(1),
      removed_at: '2026-03-03T00:00:00.000001Z',
      removed: { document: false, legs: 2 },
      replay_of: null,
      requested: { suite: 's', key: k },
    })
    // a resume reads the tenant and store from the plugin options, as its workers do
    project.write('vitest.config.ts', defaultConfig(TENANT))
    for (const args of [
      ['run', '--resume', k],
      ['run', '--resume'],
    ]) {
      const resumed = await project.digline(args)
      expect(resumed.code, resumed.stderr).toBe(64)
      expect(resumed.stderr).toContain(`refused RunRemovedError: refused to resume run ${k} of suite s`)
      expect(resumed.stderr).toContain(`digline delete --suite s --run ${k}`)
    }
    const finished = await del('s', k)
    expect(finished.stdout).toContain(`Finished the delete of run ${k} of suite s (tenant ${TENANT}) begun at 2026-03-03T00:00:00.000001Z`)

    const resumed = await project.digline(['run', '--resume', k])
    expect(resumed.stderr).toContain('RunRemovedError')
    for (const [command, doing] of [
      ['promote', 'promote'],
      ['rejudge', 're-judge'],
    ] as const) {
      const result = await project.digline([command, '--suite', 's', '--run', k, '--tenant', TENANT])
      expect(result.code, result.stderr).toBe(64)
      expect(result.stderr).toContain(`refused RunRemovedError: refused to ${doing} run ${k} of suite s`)
    }
  })
})
