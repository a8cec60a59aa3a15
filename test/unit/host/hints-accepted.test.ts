// Issue 23 item 14 (SPEC §7): a hint names only a command that would be accepted in that state. Each
// `digline promote …` the comparison or the explanation prints is run here, in process, against the
// same real file store; a state in which promote would refuse prints no such command.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import type { CaseResult, RunDocument } from '../../../src/document/schema.js'
import { serializeRun } from '../../../src/document/serialize.js'
import { TenantMismatchError } from '../../../src/store/errors.js'
import { explainRun } from '../../../src/host/judge/explain-run.js'
import { compareWithBaseline } from '../../../src/host/judge/compare.js'
import { importRuns } from '../../../src/host/lifecycle/import-runs.js'
import { promoteRun } from '../../../src/host/lifecycle/promote.js'
import { createdAtSeconds, DEFAULT_CONFIG_HASH, keyOf, makeRun } from '../../helpers/make-run.js'
import { makeTempStore, type TempStore } from '../../store/temp-store.js'

const [T0, T1, T2, T3] = createdAtSeconds(4)
const OTHER_HASH = 'bbbbbbbbbbbb'
let temp: TempStore

const failing = (doc: RunDocument, every: number): RunDocument => {
  const results: CaseResult[] = doc.results.map((r, i) =>
    i % every === 0
      ? { ...r, verdict: 'fail', score: 0, passed_samples: 0, samples: [{ pass: false, score: 0, scorers: [{ name: 'exact', pass: false, score: 0, reason: 'differs' }] }] }
      : { ...r, verdict: 'pass', score: 1, passed_samples: 1, samples: [{ pass: true, score: 1, scorers: [{ name: 'exact', pass: true, score: 1, reason: null }] }] },
  )
  const passed = results.filter((r) => r.verdict === 'pass').length
  return { ...doc, results, aggregates: { ...doc.aggregates, passed, failed: results.length - passed, pass_rate: passed / results.length, mean_score: passed / results.length } }
}

/** Every `digline promote …` in the text, run as promote would be run; each must be accepted. */
async function runPromoteHints(text: string): Promise<number> {
  const commands = [...text.matchAll(/digline promote --suite (\S+) --run (\S+?)(?: --replacing (\S+?))?(?=[`\s)]|$)/g)]
  for (const [, suite, key, replacing] of commands) {
    await promoteRun({ store: temp.store, tenant: 'acme', suite: suite!, key: key!, replacing, currentConfigHash: async () => DEFAULT_CONFIG_HASH })
  }
  return commands.length
}

const base = failing(makeRun({ createdAt: T0, results: 40 }), 40)

beforeEach(async () => {
  temp = makeTempStore()
  await temp.store.writeRun(base)
  await promoteRun({ store: temp.store, tenant: 'acme', suite: 'capitals', key: keyOf(base), replacing: undefined, currentConfigHash: async () => DEFAULT_CONFIG_HASH })
})
afterEach(() => temp.cleanup())

test('a replay under other rules is never offered as a baseline: the comparison names no promote command', async () => {
  const replayed = makeRun({ createdAt: T1, results: 40, configHash: OTHER_HASH })
  const replay: RunDocument = { ...replayed, rejudged_from: keyOf(base), rejudged_from_suite: 'capitals' }
  await temp.store.writeRun(replay)
  const comparison = await compareWithBaseline(temp.store, replay)
  expect(comparison?.status).toBe('not-comparable')
  const text = comparison?.status === 'unreadable' ? '' : (comparison?.warnings.join('\n') ?? '')
  expect(text).toContain('the rules differ')
  expect(text).not.toContain('digline promote')
  const explained = await explainRun(temp.store, 'acme', 'capitals', keyOf(replay))
  expect(explained.promotion.command).toBeNull()
  expect(await runPromoteHints(JSON.stringify(explained))).toBe(0)
})

test('a regressed run is not proposed as the baseline; the command named for accepting it on purpose is accepted', async () => {
  const regressed = failing(makeRun({ createdAt: T2, results: 40 }), 2)
  await temp.store.writeRun(regressed)
  const explained = await explainRun(temp.store, 'acme', 'capitals', keyOf(regressed))
  expect(explained.status).toBe('regressed')
  expect(explained.promotion.command).toBeNull()
  expect('why' in explained.promotion && explained.promotion.why).toContain('regressed against baseline')
  expect(await runPromoteHints(JSON.stringify(explained.promotion))).toBe(1)
  expect((await temp.store.readBaseline('acme', 'capitals'))?.promoted_from).toBe(keyOf(regressed))
})

test('a run with cached answers is never proposed, since promote refuses it', async () => {
  const cached: RunDocument = { ...makeRun({ createdAt: T3, results: 40 }), cached_answers: 3 }
  await temp.store.writeRun(cached)
  const explained = await explainRun(temp.store, 'acme', 'capitals', keyOf(cached))
  expect(explained.promotion.command).toBeNull()
  expect(await runPromoteHints(JSON.stringify(explained))).toBe(0)
})

test('an imported document of an unsafe tenant is not met with `import --tenant <that name>`', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'digline-import-'))
  try {
    const file = join(dir, 'run.json')
    writeFileSync(file, serializeRun({ ...makeRun({ createdAt: T3 }), tenant: '../x' }))
    const refusal = await importRuns(temp.store, 'acme', [file], dir).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(TenantMismatchError)
    expect((refusal as TenantMismatchError).next).not.toContain('--tenant')
    const other = join(dir, 'other.json')
    writeFileSync(other, serializeRun({ ...makeRun({ createdAt: T3 }), tenant: 'beta' }))
    const named = await importRuns(temp.store, 'acme', [other], dir).catch((error: unknown) => error)
    expect((named as TenantMismatchError).next).toContain('digline import --tenant beta')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
