// Every promotion condition of docs/adr/0009-promotion-conditions.md, through the real bin: each
// refusal exits 64, names its class and the command to run, and leaves the baseline and the
// register byte-identical.
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { serializeRun } from '../../src/document/serialize.js'
import type { RunDocument } from '../../src/document/schema.js'
import { keyFor } from '../../src/suite/keys.js'
import { snapshotTree } from '../store/tree-snapshot.js'
import { countingSuite, makeProject, type Project } from '../helpers/project.js'

const ANSWER = "process.env.ERR_CASE === String(i) ? (() => { throw new Error('upstream 529 overloaded') })() : 'ok-' + i"
const suiteFile = (name: string, passRate: number) => countingSuite({ name, cases: 6, thresholds: `{ passRate: ${passRate} }`, answer: ANSWER })

const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T10:00:00.000001Z`

let project: Project
const keys: Record<string, string> = {}

function runKeys(suite: string): string[] {
  return project.runFiles('acme', suite).map((f) => f.replace(/\.json$/, ''))
}

function readRunDoc(suite: string, key: string): RunDocument {
  return JSON.parse(project.read(`.digline/acme/runs/${suite}/${key}.json`)) as RunDocument
}

/** The baseline and the register, byte for byte. */
function committedState() {
  const tenant = join(project.dir, '.digline', 'acme')
  const bytes = (path: string) => {
    try {
      return readFileSync(join(tenant, path)).toString('base64')
    } catch {
      return null
    }
  }
  return { tree: snapshotTree(join(tenant, 'baselines')), baseline: bytes('baselines/s.json'), register: bytes('register.jsonl') }
}

async function refused(args: string[], name: string) {
  const before = committedState()
  const result = await project.digline(['promote', ...args])
  expect(result.code, result.stdout + result.stderr).toBe(64)
  expect(result.stderr).toContain(`refused ${name}: `)
  expect(result.stderr).toMatch(/\n {2}next: \S/)
  expect(committedState()).toEqual(before)
  return result
}

beforeAll(async () => {
  project = makeProject({ 'evals/s.eval.ts': suiteFile('s', 0.5) })
  const run = async (day: number, env: NodeJS.ProcessEnv = {}) => {
    const result = await project.vitest([], { DIGLINE_CREATED_AT: at(day), ...env })
    expect([0, 2], result.stdout + result.stderr).toContain(result.code)
  }
  await run(1)
  keys.old = runKeys('s')[0]!
  project.write('evals/s.eval.ts', suiteFile('s', 0.6))
  project.write('evals/gone.eval.ts', suiteFile('gone', 0.6))
  project.write('evals/fresh.eval.ts', suiteFile('fresh', 0.6))
  await run(2)
  keys.base = runKeys('s').find((k) => k !== keys.old)!
  keys.gone = runKeys('gone')[0]!
  keys.fresh = runKeys('fresh')[0]!
  rmSync(join(project.dir, 'evals/gone.eval.ts'))
  const first = await project.digline(['promote', '--suite', 's', '--run', keys.base])
  expect(first.code, first.stdout + first.stderr).toBe(0)
  await run(3)
  keys.next = runKeys('s').at(-1)!
  await run(4, { ERR_CASE: '2' })
  keys.errored = runKeys('s').at(-1)!

  const next = readRunDoc('s', keys.next)
  const replay: RunDocument = { ...next, created_at: at(5), rejudged_from: keys.next, rejudged_from_suite: 's' }
  keys.replay = keyFor(replay.created_at, replay.config_hash)
  project.write(`.digline/acme/runs/s/${keys.replay}.json`, serializeRun(replay))
  keys.unreadable = keyFor(at(6), next.config_hash)
  project.write(`.digline/acme/runs/s/${keys.unreadable}.json`, '{ "schema_version": 1, "tenant": ')
  keys.misfiled = keyFor(at(7), next.config_hash)
  copyFileSync(join(project.dir, `.digline/acme/runs/s/${keys.next}.json`), join(project.dir, `.digline/acme/runs/s/${keys.misfiled}.json`))
})

describe('promotion conditions (docs/adr/0009), each refused with exit 64 and nothing written', () => {
  test('1: tenant, suite and keys are safe path segments', async () => {
    await refused(['--suite', 's', '--run', '../escape', '--replacing', keys.base!], 'PathRefusedError')
    await refused(['--suite', 's', '--run', keys.next!, '--replacing', 'a/b'], 'PathRefusedError')
  })

  test('2a: the register can be read', async () => {
    const register = join(project.dir, '.digline/acme/register.jsonl')
    const good = readFileSync(register)
    writeFileSync(register, Buffer.concat([good, Buffer.from('=======\n')]))
    try {
      const result = await refused(['--suite', 's', '--run', keys.next!, '--replacing', keys.base!], 'UnreadableRegisterError')
      expect(result.stderr).toContain('line 2 is not JSON')
    } finally {
      writeFileSync(register, good)
    }
  })

  test('2b: the current baseline can be read', async () => {
    const baseline = join(project.dir, '.digline/acme/baselines/s.json')
    const good = readFileSync(baseline)
    writeFileSync(baseline, good.subarray(0, 200))
    try {
      await refused(['--suite', 's', '--run', keys.next!, '--replacing', keys.base!], 'UnreadableBaselineError')
    } finally {
      writeFileSync(baseline, good)
    }
  })

  test('3a: the run exists', async () => {
    const result = await refused(['--suite', 's', '--run', keyFor(at(9), '0123456789ab'), '--replacing', keys.base!], 'RunNotFoundError')
    expect(result.stderr).toContain('digline list --suite s')
  })

  test('3b: the run can be read', async () => {
    await refused(['--suite', 's', '--run', keys.unreadable!, '--replacing', keys.base!], 'UnreadableRunError')
  })

  test('3c: the run is filed under its own key', async () => {
    const result = await refused(['--suite', 's', '--run', keys.misfiled!, '--replacing', keys.base!], 'MisfiledRunError')
    expect(result.stderr).toContain(`its key is ${keys.next}`)
  })

  test('4: the run is not a replay', async () => {
    const result = await refused(['--suite', 's', '--run', keys.replay!, '--replacing', keys.base!], 'ReplayNotPromotableError')
    expect(result.stderr).toContain(`it is a replay of s/${keys.next}`)
  })

  test('5: no case of the run errored', async () => {
    const result = await refused(['--suite', 's', '--run', keys.errored!, '--replacing', keys.base!], 'ErroredRunNotPromotableError')
    expect(result.stderr).toContain('1 case(s) errored (c002)')
    expect(result.stderr).toContain(`next: digline run --resume ${keys.errored}`)
  })

  test('6: a suite file declares the suite now', async () => {
    const result = await refused(['--suite', 'gone', '--run', keys.gone!], 'SuiteNotDeclaredError')
    expect(result.stderr).toContain('no suite file declares suite gone now')
  })

  test("7: the run's config_hash is the suite's current one", async () => {
    const result = await refused(['--suite', 's', '--run', keys.old!, '--replacing', keys.base!], 'ConfigHashMismatchError')
    expect(result.stderr).toContain(`it was judged under config_hash ${keys.old!.slice(-12)}, and the suite as declared now has config_hash ${keys.base!.slice(-12)}`)
  })

  test('8a: with a baseline, --replacing is required; the message names the current key and the exact command', async () => {
    const result = await refused(['--suite', 's', '--run', keys.next!], 'ReplacingRequiredError')
    expect(result.stderr).toContain(`suite s has a baseline (${keys.base}`)
    expect(result.stderr).toContain(`next: digline promote --suite s --run ${keys.next} --replacing ${keys.base}`)
  })

  test("8b: with a baseline, --replacing must name the current baseline's key", async () => {
    const result = await refused(['--suite', 's', '--run', keys.next!, '--replacing', keys.old!], 'ReplacingMismatchError')
    expect(result.stderr).toContain(`--replacing names ${keys.old}, but the current baseline is ${keys.base}`)
    expect(result.stderr).toContain(`next: digline promote --suite s --run ${keys.next} --replacing ${keys.base}`)
  })

  test('9: without a baseline, there is nothing to replace', async () => {
    const result = await refused(['--suite', 'fresh', '--run', keys.fresh!, '--replacing', keys.base!], 'ReplacingMismatchError')
    expect(result.stderr).toContain('suite fresh has no baseline to replace')
    expect(result.stderr).toContain(`next: digline promote --suite fresh --run ${keys.fresh}\n`)
  })
})

describe('a promotion that holds every condition', () => {
  test('writes the baseline and one register line; repeated, it writes nothing; interrupted, it finishes the register', async () => {
    const args = ['promote', '--suite', 's', '--run', keys.next!, '--replacing', keys.base!]
    const done = await project.digline(args)
    expect(done.code, done.stdout + done.stderr).toBe(0)
    const baseline = JSON.parse(project.read('.digline/acme/baselines/s.json'))
    expect(baseline.promoted_from).toBe(keys.next)
    const lines = project.read('.digline/acme/register.jsonl').trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => [l.key, l.replaced])).toEqual([
      [keys.base, null],
      [keys.next, keys.base],
    ])

    const before = committedState()
    const again = await project.digline(args)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('is already the baseline of suite s, and the register says so: nothing was written')
    expect(committedState()).toEqual(before)

    // A promotion killed between its two writes: the baseline is in place, its register line is not.
    const register = join(project.dir, '.digline/acme/register.jsonl')
    const full = readFileSync(register, 'utf8')
    writeFileSync(register, `${full.trim().split('\n')[0]}\n`)
    const finished = await project.digline(args)
    expect(finished.code).toBe(0)
    expect(finished.stdout).toContain('the line was appended')
    expect(readFileSync(register, 'utf8')).toBe(full)
  })
})
