// Crash points of a promotion (SPEC §7): at every mutating operation of `digline promote` (the first
// promotion of a suite, and one replacing a baseline), a crash or a power loss, then the same promote
// repeated: the baseline and the register are byte-identical to an uninterrupted promotion's,
// nothing else in the store changed (no promotion lock left behind), and no point needs a person.
import { copyFileSync, existsSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { UnreadableRegisterError } from '../../src/store/errors.js'
import { promoteRun, type Promotion } from '../../src/host/lifecycle/promote.js'
import { FileResultStore } from '../../src/store/file/store.js'
import type { FsLayer } from '../../src/store/file/fs-layer.js'
import { FaultFs } from '../helpers/fault-fs.js'
import { createdAtSeconds, DEFAULT_CONFIG_HASH, keyOf, makeRun } from '../helpers/make-run.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { ALL_KINDS, describeOps, exercisePoints, summarize } from './support/crash-driver.js'
import { figure } from './support/figures.js'
import { copyWorld, dropWorld, makeWorld, settledTree, type World } from './support/run-scenario.js'

const PROMOTED_AT = '2026-12-01T09:00:00.000001Z'
const [FIRST_AT, SECOND_AT] = createdAtSeconds(2)
const FIRST = makeRun({ createdAt: FIRST_AT, results: 5 })
const SECOND = makeRun({ createdAt: SECOND_AT, results: 6 })

let disk: Tmpfs
beforeAll(() => {
  disk = mountTmpfs('64m')
})
afterAll(() => disk.unmount())

function promote(world: World, key: string, replacing: string | undefined, fs?: FsLayer): Promise<Promotion> {
  return promoteRun({
    store: new FileResultStore(fs === undefined ? { root: world.root } : { root: world.root, fs }),
    tenant: 'acme',
    suite: 'capitals',
    key,
    replacing,
    currentConfigHash: async () => DEFAULT_CONFIG_HASH,
    now: () => PROMOTED_AT,
  })
}

async function storeWith(promoted: boolean): Promise<World> {
  const world = makeWorld(disk.dir)
  const store = new FileResultStore({ root: world.root })
  await store.writeRun(FIRST)
  await store.writeRun(SECOND)
  await store.writeRun(makeRun({ suite: 'rivers' }))
  if (promoted) await promote(world, keyOf(FIRST), undefined)
  return world
}

describe.each([
  ['the first promotion of a suite', false, keyOf(FIRST), undefined],
  ['a promotion replacing the baseline', true, keyOf(SECOND), keyOf(FIRST)],
] as const)('crash points of %s', (what, promoted, key, replacing) => {
  test('every crash and power-loss point, then the same promote again, ends as an uninterrupted promotion', async () => {
    const start = await storeWith(promoted)
    const clean = copyWorld(start, disk.dir)
    const fs = new FaultFs()
    expect((await promote(clean, key, replacing, fs)).outcome).toBe('promoted')
    const ops = describeOps(fs, clean)
    const reference = settledTree(clean).tree
    dropWorld(clean)

    const points = await exercisePoints<unknown>({
      parent: disk.dir,
      start,
      ops,
      kinds: ALL_KINDS,
      operate: (world, faulty) => promote(world, key, replacing, faulty).catch((error: unknown) => error),
      async recover(world, _result, problems) {
        try {
          return `repeated: ${(await promote(world, key, replacing)).outcome}`
        } catch (error) {
          if (error instanceof UnreadableRegisterError && error.message.includes('not terminated by a newline')) {
            // its next step: `git checkout -- register.jsonl`, i.e. the register as committed before the promote
            const committed = join(start.root, 'acme', 'register.jsonl')
            const register = join(world.root, 'acme', 'register.jsonl')
            if (existsSync(committed)) copyFileSync(committed, register)
            else unlinkSync(register)
            return `manual (register restored), then repeated: ${(await promote(world, key, replacing)).outcome}`
          }
          problems.push(`the repeated promote failed: ${error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error)}`)
          return 'repeated: refused'
        }
      },
      reference,
    })
    const summary = summarize(points)
    figure('crash points', summary.crashPoints, `promote, ${what} (${ops.length} mutating operations)`)
    figure('power-loss points', summary.powerLossPoints, `promote, ${what}`)
    figure('documents differing', summary.problems.length, `promote, ${what}: points whose baseline, register or store differ after the repeated promote`)
    figure(
      'manual recoveries',
      summary.manual.length,
      `promote, ${what}: points where a torn register line refused the repeated promote until the register was restored (its named next step)`,
    )
    for (const p of summary.manual) console.log(`[reliability]   promote k=${p.k} ${p.kind}: ${p.op} → ${p.recovery}`)
    figure('stray temp files', summary.withTemps.length, `promote, ${what}: points that left a .tmp file behind`)
    for (const p of summary.withTemps) console.log(`[reliability]   promote k=${p.k} ${p.kind}: ${p.op}, left ${p.tempFiles.join(', ')}`)
    dropWorld(start)
    expect(summary.problems).toEqual([])
    // A torn register line is recovered by the repeated promote itself (SPEC §9): nobody restores it by hand.
    expect(summary.manual).toEqual([])
  })
})
