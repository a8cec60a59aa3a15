// Hostile layouts of the store (SPEC §4): symlinked directories and files pointing at a valid mirror
// outside the store, dangling symlinks, a FIFO, a directory where a file belongs, hard links, and a
// directory swapped for a symlink in the middle of an operation (a FaultFs hook, between two of the
// store's own file operations). At every entry point a layout concerns, the store refuses by name or
// steps around it; no operation reaches outside the store (audited at every file operation) and the
// sentinel directory outside never changes. A reader stuck on a FIFO counts as a hang.
import { linkSync, mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { baselineOf } from '../../src/document/baseline.js'
import { promoteRun } from '../../src/host/lifecycle/promote.js'
import type { FileResultStore } from '../../src/store/file/store.js'
import type { OpEvent } from '../helpers/fault-fs.js'
import { createdAtSeconds, keyOf } from '../helpers/make-run.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { journalHeader } from '../store/journal-fixtures.js'
import { makeAttackWorld, OTHER, outsideChanged, releaseFifo, RUN, RUN_KEY, type AttackWorld } from './support/attack-world.js'
import { figure } from './support/figures.js'
import { namedError } from './support/fuzz.js'

const NEW_AT = createdAtSeconds(2)[1]!
const OPS = {
  writeRun: (s: FileResultStore) => s.writeRun(RUN),
  readRun: (s: FileResultStore) => s.readRun('acme', 'capitals', RUN_KEY),
  listRuns: (s: FileResultStore) => s.listRuns('acme', 'capitals'),
  scanRuns: (s: FileResultStore) => s.scanRuns('acme', 'capitals'),
  latestKey: (s: FileResultStore) => s.latestKey('acme', 'capitals'),
  pending: (s: FileResultStore) => s.pending('acme', 'capitals'),
  listSuites: (s: FileResultStore) => s.listSuites('acme'),
  openJournal: (s: FileResultStore) => s.openJournal(journalHeader({ created_at: NEW_AT }), 1),
  readBaseline: (s: FileResultStore) => s.readBaseline('acme', 'capitals'),
  writeBaseline: (s: FileResultStore) => s.writeBaseline(baselineOf(RUN, RUN_KEY, '2026-12-02T09:00:00.000001Z')),
  readRegister: (s: FileResultStore) => s.readRegister('acme'),
  promote: (s: FileResultStore) =>
    promoteRun({
      store: s,
      tenant: 'acme',
      suite: 'capitals',
      key: RUN_KEY,
      replacing: keyOf(OTHER),
      currentConfigHash: async () => RUN.config_hash,
      now: () => '2026-12-02T09:00:00.000001Z',
    }),
  deleteRun: (s: FileResultStore) => s.deleteRun('acme', 'capitals', RUN_KEY),
  removalOf: (s: FileResultStore) => s.removalOf('acme', 'capitals', RUN_KEY),
}
type OpName = keyof typeof OPS
const ALL = Object.keys(OPS) as OpName[]

const suiteDir = (w: AttackWorld) => join(w.tenantDir, 'runs', 'capitals')
const runFileOf = (w: AttackWorld) => join(suiteDir(w), `${RUN_KEY}.json`)
const legOf = (w: AttackWorld) => join(suiteDir(w), '.pending', `${RUN_KEY}.1.jsonl`)
const baselineFile = (w: AttackWorld) => join(w.tenantDir, 'baselines', 'capitals.json')
const registerFile = (w: AttackWorld) => join(w.tenantDir, 'register.jsonl')
const inMirror = (w: AttackWorld, path: string) => path.replace(w.tenantDir, w.mirror)

function symlinkOut(w: AttackWorld, path: string, target = inMirror(w, path)): void {
  rmSync(path, { recursive: true, force: true })
  symlinkSync(target, path)
}

function fifoAt(path: string): void {
  rmSync(path, { force: true })
  execFileSync('mkfifo', [path])
}

type Group =
  'symlinks and odd files' | 'removal records behind a symlink' | 'FIFOs where a file belongs' | 'hard links to files outside' | 'a directory swapped for a symlink mid-operation'

interface Layout {
  group: Group
  name: string
  targets: readonly OpName[]
  arrange?(w: AttackWorld): void
  /** Swapped in for a symlink out, just before the first operation `when` matches. */
  swap?: { when(e: OpEvent, w: AttackWorld): boolean; path(w: AttackWorld): string }
  fifo?(w: AttackWorld): string
}

const opens =
  (path: (w: AttackWorld) => string, op: OpEvent['op'] = 'open') =>
  (e: OpEvent, w: AttackWorld) =>
    e.op === op && e.path.startsWith(path(w))

const LAYOUTS: Layout[] = [
  {
    group: 'symlinks and odd files',
    name: 'the tenant directory is a symlink out',
    targets: ALL.filter((op) => op !== 'promote' && op !== 'removalOf'),
    arrange: (w) => symlinkOut(w, w.tenantDir, w.mirror),
  },
  {
    group: 'removal records behind a symlink',
    name: 'the tenant directory is a symlink out',
    targets: ['promote', 'removalOf'],
    arrange: (w) => symlinkOut(w, w.tenantDir, w.mirror),
  },
  {
    group: 'symlinks and odd files',
    name: 'the runs directory is a symlink out',
    targets: ['writeRun', 'readRun', 'listRuns', 'scanRuns', 'latestKey', 'pending', 'listSuites', 'openJournal', 'promote', 'deleteRun'],
    arrange: (w) => symlinkOut(w, join(w.tenantDir, 'runs')),
  },
  {
    group: 'symlinks and odd files',
    name: 'the suite directory is a symlink out',
    targets: ['writeRun', 'readRun', 'listRuns', 'scanRuns', 'latestKey', 'pending', 'openJournal', 'promote', 'deleteRun'],
    arrange: (w) => symlinkOut(w, suiteDir(w)),
  },
  {
    group: 'symlinks and odd files',
    name: 'the suite directory is a symlink to another suite of the store',
    targets: ['writeRun', 'readRun', 'listRuns', 'scanRuns', 'pending', 'openJournal'],
    arrange: (w) => {
      renameSync(suiteDir(w), join(w.tenantDir, 'runs', 'rivers'))
      symlinkSync('rivers', suiteDir(w))
    },
  },
  {
    group: 'symlinks and odd files',
    name: 'the suite directory is a dangling symlink',
    targets: ['writeRun', 'readRun', 'listRuns', 'scanRuns', 'pending', 'openJournal'],
    arrange: (w) => symlinkOut(w, suiteDir(w), join(w.outside, 'nowhere')),
  },
  {
    group: 'symlinks and odd files',
    name: 'the .pending directory is a symlink out',
    targets: ['pending', 'openJournal', 'deleteRun'],
    arrange: (w) => symlinkOut(w, join(suiteDir(w), '.pending')),
  },
  {
    group: 'symlinks and odd files',
    name: 'the run file is a symlink out',
    targets: ['writeRun', 'readRun', 'listRuns', 'scanRuns', 'promote', 'deleteRun'],
    arrange: (w) => symlinkOut(w, runFileOf(w)),
  },
  {
    group: 'symlinks and odd files',
    name: 'the run file is a dangling symlink',
    targets: ['writeRun', 'readRun', 'listRuns', 'scanRuns'],
    arrange: (w) => symlinkOut(w, runFileOf(w), join(w.outside, 'nothing.json')),
  },
  { group: 'symlinks and odd files', name: 'a journal leg is a symlink out', targets: ['pending', 'deleteRun'], arrange: (w) => symlinkOut(w, legOf(w)) },
  {
    group: 'symlinks and odd files',
    name: 'the baselines directory is a symlink out',
    targets: ['readBaseline', 'writeBaseline', 'promote', 'deleteRun'],
    arrange: (w) => symlinkOut(w, join(w.tenantDir, 'baselines')),
  },
  {
    group: 'symlinks and odd files',
    name: 'the baseline file is a symlink out',
    targets: ['readBaseline', 'writeBaseline', 'promote', 'deleteRun'],
    arrange: (w) => symlinkOut(w, baselineFile(w)),
  },
  { group: 'symlinks and odd files', name: 'the register is a symlink out', targets: ['readRegister', 'promote'], arrange: (w) => symlinkOut(w, registerFile(w)) },
  {
    group: 'removal records behind a symlink',
    name: 'the removed directory is a symlink out',
    targets: ['deleteRun', 'removalOf', 'writeRun', 'promote'],
    arrange: (w) => {
      mkdirSync(join(w.mirror, 'removed'), { recursive: true })
      symlinkOut(w, join(w.tenantDir, 'removed'))
    },
  },
  {
    group: 'symlinks and odd files',
    name: 'the store’s .gitignore is a symlink out',
    targets: ['writeRun', 'openJournal'],
    arrange: (w) => symlinkOut(w, join(w.root, '.gitignore'), join(w.outside, 'sentinel.txt')),
  },
  {
    group: 'symlinks and odd files',
    name: 'the run file is a directory',
    targets: ['writeRun', 'readRun', 'listRuns', 'scanRuns', 'deleteRun'],
    arrange: (w) => {
      rmSync(runFileOf(w))
      mkdirSync(runFileOf(w))
    },
  },
  {
    group: 'hard links to files outside',
    name: 'the run file is a hard link to a file outside',
    targets: ['writeRun', 'deleteRun'],
    arrange: (w) => {
      rmSync(runFileOf(w))
      linkSync(inMirror(w, runFileOf(w)), runFileOf(w))
    },
  },
  {
    group: 'hard links to files outside',
    name: 'the register is a hard link to a file outside',
    targets: ['promote'],
    arrange: (w) => {
      rmSync(registerFile(w))
      linkSync(inMirror(w, registerFile(w)), registerFile(w))
    },
  },
  {
    group: 'FIFOs where a file belongs',
    name: 'the run file is a FIFO',
    targets: ['readRun', 'listRuns', 'scanRuns', 'promote', 'deleteRun'],
    arrange: (w) => fifoAt(runFileOf(w)),
    fifo: runFileOf,
  },
  {
    group: 'FIFOs where a file belongs',
    name: 'the baseline file is a FIFO',
    targets: ['readBaseline', 'promote', 'deleteRun'],
    arrange: (w) => fifoAt(baselineFile(w)),
    fifo: baselineFile,
  },
  { group: 'FIFOs where a file belongs', name: 'the register is a FIFO', targets: ['readRegister', 'promote'], arrange: (w) => fifoAt(registerFile(w)), fifo: registerFile },
  {
    group: 'a directory swapped for a symlink mid-operation',
    name: 'the suite directory is swapped for a symlink out before the temp file is opened',
    targets: ['writeRun'],
    swap: { when: opens(suiteDir), path: suiteDir },
  },
  {
    group: 'a directory swapped for a symlink mid-operation',
    name: 'the .pending directory is swapped for a symlink out before the leg is created',
    targets: ['openJournal'],
    swap: { when: opens((w) => join(suiteDir(w), '.pending', '')), path: (w) => join(suiteDir(w), '.pending') },
  },
  {
    group: 'a directory swapped for a symlink mid-operation',
    name: 'the baselines directory is swapped for a symlink out before the temp file is opened',
    targets: ['writeBaseline'],
    swap: { when: opens((w) => join(w.tenantDir, 'baselines', '.')), path: (w) => join(w.tenantDir, 'baselines') },
  },
  {
    group: 'a directory swapped for a symlink mid-operation',
    name: 'the tenant directory is swapped for a symlink out before the register is opened',
    targets: ['promote'],
    swap: { when: opens(registerFile), path: (w) => w.tenantDir },
  },
  {
    group: 'a directory swapped for a symlink mid-operation',
    name: 'the run file is swapped for a symlink out before it is read',
    targets: ['readRun'],
    swap: { when: opens(runFileOf, 'readFile'), path: runFileOf },
  },
  {
    group: 'a directory swapped for a symlink mid-operation',
    name: 'the suite directory is swapped for a symlink out before the run is read',
    targets: ['readRun'],
    swap: { when: opens(runFileOf, 'readFile'), path: suiteDir },
  },
  {
    group: 'a directory swapped for a symlink mid-operation',
    name: 'the suite directory is swapped for a symlink out before it is listed',
    targets: ['listRuns', 'scanRuns'],
    swap: { when: opens(suiteDir, 'readdir'), path: suiteDir },
  },
  {
    group: 'a directory swapped for a symlink mid-operation',
    name: 'the suite directory is swapped for a symlink out before a file of the run is unlinked',
    targets: ['deleteRun'],
    swap: { when: opens(suiteDir, 'unlink'), path: suiteDir },
  },
  {
    group: 'a directory swapped for a symlink mid-operation',
    name: 'the removed directory is swapped for a symlink out before a record is written',
    targets: ['deleteRun'],
    swap: { when: opens((w) => join(w.tenantDir, 'removed', 'capitals', '.')), path: (w) => join(w.tenantDir, 'removed') },
  },
]

function refusedIn(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false
  const v = value as { runs?: { refusal?: unknown }[]; refused?: unknown[] }
  if (Array.isArray(value)) return (value as { refusal?: unknown }[]).some((p) => p?.refusal !== undefined)
  return (v.refused?.length ?? 0) > 0 || (v.runs?.some((r) => r.refusal !== undefined) ?? false)
}

let disk: Tmpfs
beforeAll(() => {
  disk = mountTmpfs('64m')
})
afterAll(() => disk.unmount())

const GROUPS = [...new Set(LAYOUTS.map((l) => l.group))]

describe.each(GROUPS)('%s', (group) => {
  const layouts = LAYOUTS.filter((l) => l.group === group)
  test(`${layouts.length} layout(s) × the entry points each concerns: refused or stepped around, never followed out, nothing outside written`, async () => {
    const problems: string[] = []
    let refused = 0
    for (const layout of layouts)
      for (const op of layout.targets) {
        let swapped = false
        const world = await makeAttackWorld(disk.dir, (event, w) => {
          if (swapped || layout.swap === undefined || !layout.swap.when(event, w)) return
          swapped = true
          const path = layout.swap.path(w)
          renameSync(path, `${path}.moved-aside`)
          symlinkSync(inMirror(w, path), path)
        })
        layout.arrange?.(world)
        const settled = OPS[op](world.store).then(
          (value) => ({ value, error: undefined as unknown }),
          (error: unknown) => ({ value: undefined, error }),
        )
        const timer = new Promise<'hang'>((resolve) => setTimeout(() => resolve('hang'), 800))
        let outcome = await Promise.race([settled, timer])
        if (outcome === 'hang') {
          problems.push(`${layout.name}, ${op}: hung opening the FIFO (released after 0.8 s)`)
          let done: Awaited<typeof settled> | undefined
          void settled.then((o) => (done = o))
          for (let i = 0; i < 250 && done === undefined; i++) {
            if (layout.fifo !== undefined) releaseFifo(layout.fifo(world))
            await new Promise((r) => setTimeout(r, 20))
          }
          if (done === undefined) throw new Error(`${layout.name}, ${op}: still stuck on the FIFO after 5 s of releasing it`)
          outcome = done
        }
        const short = (text: string) => text.replaceAll(world.dir, '')
        const where = `${layout.name}, ${op}`
        if (layout.swap !== undefined && !swapped) problems.push(`${where}: the swap never happened (the operation took another path)`)
        if (world.escapes.length > 0) problems.push(`${where}: went outside the store: ${short(world.escapes.slice(0, 2).join('; '))}`)
        if (outsideChanged(world)) {
          problems.push(`${where}: the sentinel directory outside the store changed`)
          outsideWrites++
        }
        if (outcome.error !== undefined && namedError(outcome.error) === undefined) problems.push(`${where}: unnamed ${short(String(outcome.error)).slice(0, 160)}`)
        if (outcome.error !== undefined || refusedIn(outcome.value)) refused++
        else steppedAround++
        rmSync(world.dir, { recursive: true, force: true })
      }
    refusedTotal += refused
    expect(problems).toEqual([])
  })
})

let refusedTotal = 0
let steppedAround = 0
let outsideWrites = 0
afterAll(() => {
  const combos = LAYOUTS.reduce((n, l) => n + l.targets.length, 0)
  figure('attacks refused', refusedTotal, `${LAYOUTS.length} hostile layouts × the entry points each concerns (${combos}); ${steppedAround} more stepped around without following`)
  figure('outside writes', outsideWrites, 'hostile layouts: combinations that changed the sentinel directory outside the store')
})
