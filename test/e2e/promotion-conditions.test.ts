// The promotion conditions through the real bin (the whole matrix runs in process in
// test/unit/host/promote-conditions.test.ts): a refusal exits 64, names its class and a command
// accepted in that state, and leaves the baseline and the register byte-identical.
// Two `vitest run`s make the base and the errored run; the next run is the base re-dated and the
// first baseline is filed, both through the store (ADR 0545): every promote asserted on is the bin.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { FileResultStore } from '../../src/store/file/store.js'
import { promoteFirst } from '../helpers/make-run.js'
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
  await run(2)
  keys.base = runKeys('s')[0]!
  const store = new FileResultStore({ root: join(project.dir, '.digline') })
  const base = await store.readRun('acme', 's', keys.base)
  await promoteFirst(store, base, '2026-11-02T11:00:00.000001Z')
  await store.writeRun({ ...base, created_at: at(3) })
  keys.next = runKeys('s').at(-1)!
  await run(4, { ERR_CASE: '2' })
  keys.errored = runKeys('s').at(-1)!
})

describe('the CLI wiring of the promotion refusals (the whole matrix: test/unit/host/promote-conditions.test.ts)', () => {
  test('an errored, finished run: the next step is a new run, which vitest accepts, never a resume of it', async () => {
    const result = await refused(['--suite', 's', '--run', keys.errored!, '--replacing', keys.base!], 'ErroredRunNotPromotableError')
    expect(result.stderr).toContain('1 case(s) errored (c002)')
    expect(result.stderr).toContain(
      `next: vitest run (to measure suite s again; a finished run is never resumed), then digline promote --suite s --run NEW_KEY --replacing ${keys.base}`,
    )
    const resume = await project.digline(['run', '--resume', keys.errored!])
    expect(resume.code).toBe(64)
    expect(resume.stderr).toContain('NoPendingJournalError')
  })

  test('with a baseline, --replacing is required; the message names the current key and the exact command', async () => {
    const result = await refused(['--suite', 's', '--run', keys.next!], 'ReplacingRequiredError')
    expect(result.stderr).toContain(`suite s has a baseline (${keys.base}`)
    expect(result.stderr).toContain(`next: digline promote --suite s --run ${keys.next} --replacing ${keys.base}`)
  })
})

describe('a promotion that holds every condition', () => {
  test('writes the baseline and one register line; repeated, it writes nothing; interrupted, it finishes the register', async () => {
    const args = ['promote', '--suite', 's', '--run', keys.next!, '--replacing', keys.base!]
    const done = await project.digline(args)
    expect(done.code, done.stdout + done.stderr).toBe(0)
    const baseline = JSON.parse(project.read('.digline/acme/baselines/s.json'))
    expect(baseline.promoted_from).toBe(keys.next)
    const lines = project
      .read('.digline/acme/register.jsonl')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
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
