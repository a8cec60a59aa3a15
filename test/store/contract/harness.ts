// What every part of the Store contract suite shares: the subject a backend supplies, the refusal
// check, and the hostile names every operation must refuse before any I/O.
import { expect } from 'vitest'
import type { RegisterEntry } from '../../../src/document/baseline.js'
import { HEADER_KEYS, type RunDocument } from '../../../src/document/schema.js'
import type { DiglineError } from '../../../src/errors/base.js'
import type { Store } from '../../../src/store/contract.js'
import { keyOf } from '../../helpers/make-run.js'

/** A fresh, empty store of one backend, and a comparable picture of everything it holds. */
export interface ContractSubject {
  store: Store
  /**
   * What `openStore({ store: locator })` opens as this same store, from another process: the file
   * store's root directory, the team store's URL. The lease and killed-writer rules run a writer
   * child through it.
   */
  locator: string
  /** How long a SIGKILLed writer's lease may still hold (a lease expiring on its own); 0 when unset. */
  deadLeaseMs?: number
  /** Everything the backend holds, comparable with toEqual: a refusal must leave it equal. */
  snapshot(): unknown
  /** A name that would address something outside the store, tried as one more hostile name. */
  outsideName?: string
  cleanup(): unknown
}

export type ContractFactory = () => ContractSubject | Promise<ContractSubject>

export type ErrorClass = abstract new (...args: never[]) => DiglineError

export const HOSTILE_NAMES: readonly string[] = [
  '..',
  '.',
  '',
  'a/b',
  '../escape',
  '/abs',
  'a\\b',
  'a\0b',
  'x'.repeat(200),
  'x'.repeat(129),
  '.hidden',
  '-rf',
  'with space',
  'tab\there',
  'new\nline',
  'ü',
]

export async function refusalOf(promise: Promise<unknown>, expected: ErrorClass): Promise<DiglineError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error, 'expected a refusal').toBeInstanceOf(expected)
  const refusal = error as DiglineError
  expect(refusal.message).toContain('next: ')
  return refusal
}

/** Runs the refusal and asserts the store holds exactly what it held before. */
export async function refusedWithoutChange(subject: ContractSubject, action: () => Promise<unknown>, expected: ErrorClass): Promise<DiglineError> {
  const refusal = await failedWithoutChange(subject, action, expected)
  expect(refusal.exitCode).toBe(64)
  return refusal
}

/** Runs an action that must fail with `expected` (a refusal or an internal error) and change nothing. */
export async function failedWithoutChange(subject: ContractSubject, action: () => Promise<unknown>, expected: ErrorClass): Promise<DiglineError> {
  const before = await subject.snapshot()
  const error = await refusalOf(action(), expected)
  expect(await subject.snapshot()).toEqual(before)
  return error
}

export function headerOf(doc: RunDocument): Record<string, unknown> {
  const header: Record<string, unknown> = {}
  for (const key of HEADER_KEYS) if (doc[key] !== undefined) header[key] = doc[key]
  return header
}

export function registerEntryFor(run: RunDocument, replaced: string | null, promotedAt: string): RegisterEntry {
  const a = run.aggregates
  return {
    promoted_at: promotedAt,
    suite: run.suite,
    key: keyOf(run),
    replaced,
    config_hash: run.config_hash,
    cases: a.cases,
    passed: a.passed,
    failed: a.failed,
    pass_rate: a.pass_rate,
  }
}
