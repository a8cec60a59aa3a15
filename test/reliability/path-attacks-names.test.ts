// Hostile names at every entry point of the store and the CLI (SPEC §4): each of the corpus's names
// as the tenant, the suite or the key (and --replacing) of writeRun, readRun, listRuns, scanRuns,
// latestKey, pending, dropPending, listSuites, openJournal, readBaseline, writeBaseline, promote,
// deleteRun and removalOf, and of the CLI commands. Every one is refused by name before any file
// operation (FaultFs saw none), and the sentinel directory outside the store never changes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { baselineOf } from '../../src/document/baseline.js'
import { promoteRun } from '../../src/host/lifecycle/promote.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { FaultFs } from '../helpers/fault-fs.js'
import { makeRun } from '../helpers/make-run.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { journalHeader } from '../store/journal-fixtures.js'
import { snapshotTree } from '../store/tree-snapshot.js'
import { makeAttackWorld, outsideChanged, RUN_KEY, type AttackWorld } from './support/attack-world.js'
import { figure } from './support/figures.js'
import { namedError } from './support/fuzz.js'
import { HOSTILE_NAMES } from './support/hostile-names.js'

type Role = 'tenant' | 'suite' | 'key' | 'replacing'
type Entry = { name: string; roles: Role[]; call: (store: FileResultStore, n: Record<Role, string>) => Promise<unknown> }

const OK = { tenant: 'acme', suite: 'capitals', key: RUN_KEY, replacing: RUN_KEY }

const ENTRIES: Entry[] = [
  {
    name: 'writeRun',
    roles: ['tenant', 'suite', 'key'],
    call: (s, n) => s.writeRun({ ...makeRun({ tenant: n.tenant, suite: n.suite }), ...(n.key === OK.key ? {} : { created_at: n.key }) }),
  },
  { name: 'readRun', roles: ['tenant', 'suite', 'key'], call: (s, n) => s.readRun(n.tenant, n.suite, n.key) },
  { name: 'listRuns', roles: ['tenant', 'suite'], call: (s, n) => s.listRuns(n.tenant, n.suite) },
  { name: 'scanRuns', roles: ['tenant', 'suite'], call: (s, n) => s.scanRuns(n.tenant, n.suite) },
  { name: 'latestKey', roles: ['tenant', 'suite'], call: (s, n) => s.latestKey(n.tenant, n.suite) },
  { name: 'pending', roles: ['tenant', 'suite'], call: (s, n) => s.pending(n.tenant, n.suite) },
  { name: 'dropPending', roles: ['tenant', 'suite', 'key'], call: (s, n) => s.dropPending(n.tenant, n.suite, n.key) },
  { name: 'listSuites', roles: ['tenant'], call: (s, n) => s.listSuites(n.tenant) },
  // a leg's key is made from its header's created_at, which only the resume checks (see docs/reliability.md)
  { name: 'openJournal', roles: ['tenant', 'suite'], call: (s, n) => s.openJournal(journalHeader({ tenant: n.tenant, suite: n.suite }), 2) },
  { name: 'readBaseline', roles: ['tenant', 'suite'], call: (s, n) => s.readBaseline(n.tenant, n.suite) },
  {
    name: 'writeBaseline',
    roles: ['tenant', 'suite'],
    call: (s, n) => s.writeBaseline(baselineOf(makeRun({ tenant: n.tenant, suite: n.suite }), RUN_KEY, '2026-12-01T09:00:00.000001Z')),
  },
  {
    name: 'promote',
    roles: ['tenant', 'suite', 'key', 'replacing'],
    call: (s, n) => promoteRun({ store: s, tenant: n.tenant, suite: n.suite, key: n.key, replacing: n.replacing, currentConfigHash: async () => makeRun().config_hash }),
  },
  { name: 'deleteRun', roles: ['tenant', 'suite', 'key'], call: (s, n) => s.deleteRun(n.tenant, n.suite, n.key) },
  { name: 'removalOf', roles: ['tenant', 'suite', 'key'], call: (s, n) => s.removalOf(n.tenant, n.suite, n.key) },
]

let disk: Tmpfs
let world: AttackWorld
beforeAll(async () => {
  disk = mountTmpfs('64m')
  world = await makeAttackWorld(disk.dir)
})
afterAll(() => disk.unmount())

describe('hostile names at the store’s entry points', () => {
  test(`${HOSTILE_NAMES.length} names × every role of ${ENTRIES.length} entry points: refused by name before any file operation`, async () => {
    const before = snapshotTree(world.dir)
    const problems: string[] = []
    let refused = 0
    for (const entry of ENTRIES) {
      for (const role of entry.roles) {
        for (const name of HOSTILE_NAMES) {
          const fs = new FaultFs()
          const store = new FileResultStore({ root: world.root, fs })
          const where = `${entry.name} with ${role} ${JSON.stringify(name).slice(0, 40)}`
          const error = await entry.call(store, { ...OK, [role]: name }).then(
            () => undefined,
            (e: unknown) => e,
          )
          if (error === undefined) problems.push(`${where}: accepted`)
          else if (namedError(error) === undefined) problems.push(`${where}: unnamed ${String(error).slice(0, 120)}`)
          else if (fs.events.length > 0) problems.push(`${where}: refused only after ${fs.events.length} file operation(s), first ${fs.events[0]!.op} ${fs.events[0]!.path}`)
          else refused++
        }
      }
    }
    figure('attacks refused', refused, `${HOSTILE_NAMES.length} hostile names as tenant, suite, key or --replacing of ${ENTRIES.length} store entry points, before any I/O`)
    expect(problems).toEqual([])
    expect(outsideChanged(world)).toBe(false)
    expect(snapshotTree(world.dir)).toEqual(before)
  })
})

describe('hostile names on the command line', () => {
  const COMMANDS: [string, string[]][] = [
    ['list', ['--suite', '$suite']],
    ['show', ['--suite', '$suite', '--run', '$key']],
    ['compare', ['--suite', '$suite', '--run', '$key']],
    ['pending', ['--suite', '$suite']],
    ['promote', ['--suite', '$suite', '--run', '$key']],
    ['promote', ['--suite', 'capitals', '--run', RUN_KEY, '--replacing', '$key']],
    ['rejudge', ['--suite', '$suite', '--run', '$key']],
    ['rejudge', ['--suite', 'capitals', '--run', RUN_KEY, '--into', '$suite']],
    ['delete', ['--suite', '$suite', '--run', '$key']],
    ['retire', ['--suite', '$suite']],
    ['export', ['--suite', '$suite', '--run', '$key', '--out', 'exported']],
    ['list', ['--retired']],
  ]

  test('every command refuses every hostile tenant, suite and key with exit 64, naming the refusal, and nothing changes', async () => {
    const before = snapshotTree(world.dir)
    const problems: string[] = []
    let refused = 0
    const names = HOSTILE_NAMES.filter((n) => !n.includes('\0'))
    for (const [command, shape] of COMMANDS) {
      for (const role of ['tenant', 'suite', 'key'] as const) {
        if (role !== 'tenant' && !shape.some((a) => a === `$${role}`)) continue
        for (const name of names) {
          const args = shape.map((a) => (a === `$${role}` ? name : a === '$suite' ? 'capitals' : a === '$key' ? RUN_KEY : a))
          const argv = [command, '--tenant', role === 'tenant' ? name : 'acme', ...args]
          const err: string[] = []
          const code = await main(argv, { cwd: world.project, env: { NO_COLOR: '1' }, stdout: () => undefined, stderr: (t) => void err.push(t) })
          const line = err.join('\n')
          if (code !== 64) problems.push(`digline ${argv.map((a) => JSON.stringify(a).slice(0, 30)).join(' ')}: exit ${code} ${line.slice(0, 160)}`)
          else if (!/^refused \w+: /.test(line)) problems.push(`digline ${command} (${role} ${JSON.stringify(name)}): ${line.slice(0, 160)}`)
          else refused++
        }
      }
    }
    figure('attacks refused', refused, `${names.length} hostile names as --tenant, --suite, --run, --replacing or --into of ${COMMANDS.length} command forms (exit 64)`)
    expect(snapshotTree(world.dir)).toEqual(before)
    expect(problems).toEqual([])
  })
})
