// The CLI against arbitrary arguments (SPEC §5, §9): `main(argv, io)` in-process, in a temp project
// whose store holds runs, a baseline, a register, a journal and a corrupt file, fed FUZZ_RUNS
// argument lists. Every answer is an exit code of the contract; every failure printed names a class
// of REFUSALS or FAILURES (never a stack trace); nothing on disk changes. `run` and `delete` are left
// out (`run` spawns vitest; `delete` writes by design, its hostile names are in path-attacks.test.ts);
// `rejudge` and `promote` stay in, as no run of this store can reach the point where they spawn vitest.
import { existsSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { main } from '../../src/cli/main.js'
import { runDocumentSchema, type RunDocument } from '../../src/document/schema.js'
import { FAILURES, REFUSALS } from '../../src/errors/catalogue.js'
import { FileJournal } from '../../src/store/file/journal.js'
import { FileResultStore } from '../../src/store/file/store.js'
import { snapshotTree } from '../store/tree-snapshot.js'
import { journalHeader, LEG_1 } from '../store/journal-fixtures.js'
import { createdAtSeconds, DEFAULT_CONFIG_HASH, keyOf, makeRun } from '../helpers/make-run.js'
import { mountTmpfs, type Tmpfs } from '../helpers/tmpfs.js'
import { figure, FUZZ_RUNS } from './support/figures.js'
import { fuzzOptions } from './support/fuzz.js'
import { HOSTILE_NAMES } from './support/hostile-names.js'
import { makeWorld, type World } from './support/run-scenario.js'

const [BASE_AT, ERRORED_AT, REPLAY_AT, CORRUPT_AT] = createdAtSeconds(4)
let disk: Tmpfs
let world: World
const keys: string[] = []

function errored(createdAt: string, suite = 'capitals'): RunDocument {
  const doc = makeRun({ createdAt, suite, results: 3 })
  doc.results[1] = { case_id: doc.results[1]!.case_id, verdict: 'error', score: null, passed_samples: 0, reason: null, error: { cause: 'target', message: 'down' }, samples: [] }
  return runDocumentSchema.parse({ ...doc, aggregates: { ...doc.aggregates, passed: 2, errored: 1, pass_rate: 1 } })
}

beforeAll(async () => {
  disk = mountTmpfs('64m')
  world = makeWorld(disk.dir)
  const store = new FileResultStore({ root: world.root })
  // No run here records answers and none is promotable, so neither rejudge nor promote gets as far as spawning vitest.
  const base = errored(BASE_AT!)
  const failed = errored(ERRORED_AT!)
  const replay = runDocumentSchema.parse({ ...makeRun({ createdAt: REPLAY_AT }), rejudged_from: keyOf(failed), rejudged_from_suite: 'capitals' })
  for (const doc of [failed, replay, errored(ERRORED_AT!, 'rivers')]) await store.writeRun(doc)
  await store.writeBaseline({ ...makeRun({ createdAt: BASE_AT }), promoted_at: '2026-12-01T09:00:00.000001Z', promoted_from: keyOf(base) })
  await store.appendRegister('acme', {
    promoted_at: '2026-12-01T09:00:00.000001Z',
    suite: 'capitals',
    key: keyOf(base),
    replaced: null,
    config_hash: DEFAULT_CONFIG_HASH,
    cases: 3,
    passed: 3,
    failed: 0,
    pass_rate: 1,
  })
  const corrupt = keyOf(makeRun({ createdAt: CORRUPT_AT }))
  writeFileSync(store.paths.runFile('acme', 'capitals', corrupt), '{"schema_version": 1, "tenant": "acme", garbage')
  const leg = await new FileJournal({ root: world.root }).openJournal(journalHeader(), 1)
  for (const r of LEG_1.slice(0, 3)) await leg.append(r)
  await leg.close()
  keys.push(keyOf(base), keyOf(failed), keyOf(replay), corrupt, keyOf(makeRun()))
})
afterAll(() => disk.unmount())

const ANSI = /\u001b\[[0-9;]*m/g

function argvArbitrary(): fc.Arbitrary<string[]> {
  const command = fc.constantFrom('list', 'show', 'pending', 'compare', 'promote', 'rejudge', 'help', '--help', '-h', '--version', '-v', 'lst', '', 'LIST', '--suite')
  const flag = fc.constantFrom(
    '--suite',
    '--run',
    '--tenant',
    '--store',
    '--config',
    '--json',
    '--all',
    '--format',
    '--replacing',
    '--into',
    '--help',
    '-h',
    '--bogus',
    '-x',
    '--',
    '--resume',
    '--no-json',
  )
  // argv from a real shell never holds NUL, so neither do these
  const hostile = HOSTILE_NAMES.filter((n) => !n.includes('\0'))
  const value = fc.oneof(
    fc.constantFrom('capitals', 'rivers', 'acme', 'latest', 'md', 'text', '.digline', '.', 'nowhere', '-', ...keys),
    fc.constantFrom(...hostile),
    fc.string({ maxLength: 12 }).filter((s) => !s.includes('\0')),
  )
  const token = fc.oneof(
    flag,
    value,
    fc.tuple(flag, value).map(([f, v]) => `${f}=${v}`),
  )
  const loose = fc.tuple(command, fc.boolean(), fc.array(token, { maxLength: 8 })).map(([c, tenant, rest]) => [c, ...(tenant ? ['--tenant', 'acme'] : []), ...rest])
  const shaped = fc.tuple(command, value, value, fc.array(token, { maxLength: 3 })).map(([c, suite, run, rest]) => [c, '--tenant', 'acme', '--suite', suite, '--run', run, ...rest])
  return fc.oneof(loose, shaped).map(withoutExistingConfig)
}

/** A --config naming a path that exists loads it with Vite: the test after this one holds that case. */
function withoutExistingConfig(argv: string[]): string[] {
  return argv.map((arg, i) => {
    const value = arg.startsWith('--config=') ? arg.slice('--config='.length) : argv[i - 1] === '--config' ? arg : undefined
    if (value === undefined || !existsSync(resolve(world.project, value))) return arg
    return arg.startsWith('--config=') ? '--config=no-such-config.ts' : 'no-such-config.ts'
  })
}

test(`${FUZZ_RUNS} argument lists: an exit code of the contract, only named refusals on stderr, nothing on disk changed`, async () => {
  const before = snapshotTree(world.dir)
  const codes = new Map<number, number>()
  /** Violations by their first line, with the first argv that showed each: the run goes on to find the others. */
  const violations = new Map<string, string[]>()
  const violation = (what: string, argv: string[]) => {
    if (!violations.has(what)) violations.set(what, argv)
  }
  let inputs = 0
  await fc.assert(
    fc.asyncProperty(argvArbitrary(), async (argv) => {
      inputs++
      const err: string[] = []
      const io = { cwd: world.project, env: { NO_COLOR: '1', PATH: process.env.PATH }, stdout: () => undefined, stderr: (t: string) => void err.push(t.replace(ANSI, '')) }
      const code = await main(argv, io).catch((error: unknown) => {
        violation(`main() rejected: ${String(error).split('\n')[0]}`, argv)
        return -1
      })
      codes.set(code, (codes.get(code) ?? 0) + 1)
      if (![0, 1, 2, 64].includes(code)) violation(`exit ${code} is not in the contract`, argv)
      for (const line of err) {
        const failure = /^(refused|failed) (\S+?):/.exec(line)
        if (failure === null) continue
        if (!(failure[2]! in REFUSALS || failure[2]! in FAILURES))
          violation(
            `stderr names no refusal: ${line
              .split('\n')
              .slice(0, 2)
              .join(' / ')
              .replace(/\/tmp\/\S+/g, '<tmp>')
              .slice(0, 200)}`,
            argv,
          )
      }
      if (code === 64 && err.length === 0) violation('exit 64 without a word on stderr', argv)
      expect(snapshotTree(world.dir)).toEqual(before)
    }),
    fuzzOptions(FUZZ_RUNS),
  )
  for (const [what, argv] of violations) console.log(`[reliability]   CLI: ${what}\n    e.g. digline ${argv.map((a) => JSON.stringify(a)).join(' ')}`)
  figure('inputs fuzzed', inputs, `CLI arguments: main(argv) of list, show, pending, compare, promote, rejudge (exit codes ${[...codes].map(([c, n]) => `${c}×${n}`).join(', ')})`)
  expect([...violations.keys()]).toEqual([])
})

test('a --config that names a directory or a file that is no Vitest config is refused by name (exit 64), never a stack trace', async () => {
  const problems: string[] = []
  for (const config of ['.', '.digline', '', '/etc/passwd', '/dev/null']) {
    const err: string[] = []
    const argv = ['list', '--suite', 'capitals', '--tenant', 'acme', `--config=${config}`]
    const code = await main(argv, { cwd: world.project, env: { NO_COLOR: '1' }, stdout: () => undefined, stderr: (t) => void err.push(t.replace(ANSI, '')) })
    const first = err.join('\n').split('\n')[0] ?? ''
    if (code !== 64 || !/^refused \w+: /.test(first)) problems.push(`digline ${argv.join(' ')}: exit ${code}, ${first.slice(0, 120)}`)
  }
  expect(problems).toEqual([])
})
