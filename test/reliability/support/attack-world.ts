// A store worth attacking: tenant acme with a run, a journal, a baseline and the register, and beside
// it an `outside` directory holding a valid mirror of the same tenant, so a reader that follows a
// symlink out would succeed rather than fail by luck. The audit says which operations a FaultFs saw
// go out of the store: any path whose real parent (or, when the operation follows it, whose real
// target) is not under the store's real root.
import { cpSync, existsSync, lstatSync, mkdirSync, realpathSync } from 'node:fs'
import { closeSync, constants, openSync } from 'node:fs'
import { dirname, join, relative, isAbsolute, basename } from 'node:path'
import { baselineOf } from '../../../src/document/baseline.js'
import { FileJournal } from '../../../src/store/file/journal.js'
import { FileResultStore } from '../../../src/store/file/store.js'
import type { FsLayer } from '../../../src/store/file/fs-layer.js'
import { FaultFs, isMutatingOpen, type OpEvent } from '../../helpers/fault-fs.js'
import { createdAtSeconds, keyOf, makeRun } from '../../helpers/make-run.js'
import { journalHeader, LEG_1 } from '../../store/journal-fixtures.js'
import { snapshotTree, type TreeEntry } from '../../store/tree-snapshot.js'
import { makeWorld, type World } from './run-scenario.js'

export const RUN = makeRun({ results: 3 })
export const RUN_KEY = keyOf(RUN)
export const OTHER = makeRun({ createdAt: createdAtSeconds(1)[0], results: 2 })

export interface AttackWorld extends World {
  /** The tenant's mirror under outside/: what a followed symlink would reach. */
  mirror: string
  tenantDir: string
  outsideBefore: TreeEntry[]
  /** Operations that reached outside the store (each as "op path"). */
  escapes: string[]
  fs: FaultFs
  store: FileResultStore
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

function realOf(path: string): string | undefined {
  let current = path
  const rest: string[] = []
  for (;;) {
    try {
      return join(realpathSync(current), ...rest.reverse())
    } catch {
      const parent = dirname(current)
      if (parent === current) return undefined
      rest.push(basename(current))
      current = parent
    }
  }
}

const FOLLOWING = new Set(['stat', 'realpath'])

/** Where an operation really lands, or undefined when it stays in the store (the root itself and its parents are the store's to create). */
const ON_A_HANDLE = new Set(['write', 'fsync', 'fstat', 'ftruncate', 'close'])

export function escapeOf(root: string, realRoot: string, event: OpEvent): string | undefined {
  // An operation on an open descriptor goes where its open went, and that open was audited. The
  // store's own realpath() is how it detects a symlink, not a way out of the store.
  if (ON_A_HANDLE.has(event.op) || event.op === 'realpath') return undefined
  const paths =
    event.to === undefined
      ? [[event.path, event.via]]
      : [
          [event.path, event.via],
          [event.to, event.viaTo],
        ]
  for (const [path, via] of paths as [string, string | undefined][]) {
    if (inside(path, root)) continue
    // reached through a held-open directory: where that directory really is now
    const parent = via === undefined || !via.startsWith('/proc/self/fd/') ? realOf(dirname(path)) : /^\/proc\/self\/fd\/\d+$/.test(via) ? realOf(via) : realOf(dirname(via))
    if (parent !== undefined && !inside(realRoot, parent)) return `${event.op} ${path} (in ${parent})`
    const follows = FOLLOWING.has(event.op) || (event.op === 'open' && ((event.flags ?? 0) & (constants.O_NOFOLLOW ?? 0)) === 0)
    const named = via?.startsWith('/proc/self/fd/') ? via : path
    if (follows && existsSync(named)) {
      const target = realpathSync(named)
      if (!inside(realRoot, target)) return `${event.op} ${path} (reaches ${target})`
    }
  }
  return undefined
}

/** The store and its mirror; `beforeOp` runs before the audit of each operation (to swap paths in). */
export async function makeAttackWorld(parent: string, beforeOp?: (event: OpEvent, world: AttackWorld) => void): Promise<AttackWorld> {
  const base = makeWorld(parent)
  const setup = new FileResultStore({ root: base.root })
  await setup.writeRun(RUN)
  await setup.writeRun(OTHER)
  await setup.writeBaseline(baselineOf(OTHER, keyOf(OTHER), '2026-12-01T09:00:00.000001Z'))
  await setup.appendRegister('acme', {
    promoted_at: '2026-12-01T09:00:00.000001Z',
    suite: 'capitals',
    key: keyOf(OTHER),
    replaced: null,
    config_hash: OTHER.config_hash,
    cases: 2,
    passed: 2,
    failed: 0,
    pass_rate: 1,
  })
  const leg = await new FileJournal({ root: base.root }).openJournal(journalHeader(), 1)
  for (const r of LEG_1.slice(0, 2)) await leg.append(r)
  await leg.close()
  mkdirSync(join(base.root, 'acme', 'removed'), { recursive: true })
  const mirror = join(base.outside, 'acme')
  cpSync(join(base.root, 'acme'), mirror, { recursive: true })
  const realRoot = realpathSync(base.root)
  const world = { ...base, mirror, tenantDir: join(base.root, 'acme'), outsideBefore: [], escapes: [] } as unknown as AttackWorld
  world.fs = new FaultFs({
    beforeOp(event) {
      beforeOp?.(event, world)
      const escape = escapeOf(base.root, realRoot, event)
      if (escape !== undefined) world.escapes.push(escape)
    },
  })
  world.store = new FileResultStore({ root: base.root, fs: world.fs as FsLayer })
  world.outsideBefore = snapshotTree(base.outside)
  return world
}

/** What changed outside the store since the world was made. */
export function outsideChanged(world: AttackWorld): boolean {
  return JSON.stringify(snapshotTree(world.outside)) !== JSON.stringify(world.outsideBefore)
}

/** Whoever is stuck opening a FIFO is let go: the other end opens it and closes it at once. */
export function releaseFifo(path: string): void {
  if (!existsSync(path) || !lstatSync(path).isFIFO()) return
  for (const flags of [constants.O_WRONLY | constants.O_NONBLOCK, constants.O_RDONLY | constants.O_NONBLOCK]) {
    try {
      closeSync(openSync(path, flags))
    } catch {
      // nobody waits at that end
    }
  }
}

export function mutatingEvents(world: AttackWorld): OpEvent[] {
  return world.fs.events.filter((e) => e.index !== undefined || (e.op === 'open' && isMutatingOpen(e.flags ?? 0)))
}
