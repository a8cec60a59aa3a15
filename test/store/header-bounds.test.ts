// The writers enforce the readers' bounds first (SPEC §4): a suite whose journal header or run
// document header would not fit the prefix that listing, deleting and the liveness check read is
// refused at start, before any call, naming the largest field; nothing is written.
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HeaderTooLargeError } from '../../src/store/errors.js'
import { measureRun } from '../../src/host/launch/measure-run.js'
import { prepareRun } from '../../src/host/launch/prepare-run.js'
import { exact } from '../../src/scorers/exact.js'
import { HEADER_PREFIX_LIMIT_BYTES } from '../../src/store/file/header-reader.js'
import { JOURNAL_HEADER_LIMIT_BYTES } from '../../src/store/file/leg-peek.js'
import { resolveSuite } from '../../src/suite/resolve-suite.js'
import type { JsonObject } from '../../src/suite/types.js'
import { makeRun } from '../helpers/make-run.js'
import { refusalOf } from './contract.js'
import { makeTempStore, type TempStore } from './temp-store.js'

let temp: TempStore

beforeEach(() => {
  temp = makeTempStore()
  mkdirSync(join(temp.dir, 'project'), { recursive: true })
})
afterEach(() => temp.cleanup())

function suiteWith(calls: string[], options: { systemPrompt?: string; metadata?: JsonObject }) {
  return resolveSuite({
    name: 'big',
    cases: [{ id: 'c0', input: 0, expected: 0 }],
    target: {
      config: { model: 'det-v1', system: options.systemPrompt ?? 'be brief' },
      ask(input: unknown, ctx) {
        calls.push(ctx.caseId)
        return { output: input, model: 'det-v1' }
      },
    },
    scorers: [exact()],
    ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
  })
}

async function measure(options: { systemPrompt?: string; metadata?: JsonObject }): Promise<{ calls: string[]; error: unknown }> {
  const calls: string[] = []
  const ctx = { tenant: 'acme', environment: 'local', storeRoot: temp.root, projectRoot: join(temp.dir, 'project'), env: { DIGLINE_CREATED_AT: '2026-11-29T22:39:56.123456Z' } }
  try {
    await measureRun(await prepareRun(suiteWith(calls, options), ctx), { store: temp.store })
    return { calls, error: undefined }
  } catch (error) {
    return { calls, error }
  }
}

describe('a header over the readers’ bound is refused at start, before any call', () => {
  it('a 96 KB system prompt: the journal header would outgrow the window the delete’s liveness check reads', async () => {
    const { calls, error } = await measure({ systemPrompt: 'x'.repeat(96 * 1024) })
    expect(error).toBeInstanceOf(HeaderTooLargeError)
    const refusal = error as HeaderTooLargeError
    expect(refusal.message).toContain('journal header')
    expect(refusal.message).toContain(`${JOURNAL_HEADER_LIMIT_BYTES} bytes`)
    expect(refusal.message).toContain('largest field is target_config')
    expect(refusal.path).toEqual(['target_config'])
    expect(calls).toEqual([])
    expect(existsSync(temp.root)).toBe(false)
  })

  it('1.1 MB of metadata: the run document header would outgrow the prefix listing and deleting read', async () => {
    const { calls, error } = await measure({ metadata: { notes: 'm'.repeat(1100 * 1024) } })
    expect(error).toBeInstanceOf(HeaderTooLargeError)
    const refusal = error as HeaderTooLargeError
    expect(refusal.message).toContain('run document header')
    expect(refusal.message).toContain(`${HEADER_PREFIX_LIMIT_BYTES} bytes`)
    expect(refusal.message).toContain('largest field is metadata')
    expect(calls).toEqual([])
    expect(existsSync(temp.root)).toBe(false)
  })

  it('a header just under the bounds runs, and its run can be listed and deleted', async () => {
    const { calls, error } = await measure({ systemPrompt: 'x'.repeat(40 * 1024), metadata: { notes: 'm'.repeat(900 * 1024) } })
    expect(error).toBeUndefined()
    expect(calls).toEqual(['c0'])
    const [listed] = (await temp.store.listRuns('acme', 'big')).runs
    expect(listed?.refusal).toBeUndefined()
    const removal = await temp.store.deleteRun('acme', 'big', listed!.key!)
    expect(removal.run.document).toBe(true)
    expect(removal.run.created_at).toBe('2026-11-29T22:39:56.123456Z')
  })

  it('the store refuses to write a document whose header it could not read back, and writes nothing', async () => {
    const doc = { ...makeRun(), metadata: { notes: 'm'.repeat(1100 * 1024) } }
    await refusalOf(temp.store.writeRun(doc), HeaderTooLargeError)
    expect(existsSync(temp.root)).toBe(false)
  })
})
