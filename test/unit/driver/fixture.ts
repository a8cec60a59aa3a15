// Small deterministic suites for the driver tests: real resolveSuite, counted targets, no mocks.
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import type { ResolvedSuite, SuiteDefinition, TargetContext } from '../../../src/suite/types.js'
import { exact } from '../../../src/scorers/exact.js'

export interface Call {
  caseId: string
  sample: number
  signal: AbortSignal
}

/** Wraps a target function so every call is recorded in order. */
export function counted<T>(answer: (input: unknown, ctx: TargetContext) => T | Promise<T>) {
  const calls: Call[] = []
  const target = async (input: unknown, ctx: TargetContext): Promise<T> => {
    calls.push({ caseId: ctx.caseId, sample: ctx.sample, signal: ctx.signal })
    return answer(input, ctx)
  }
  return { target, calls }
}

export function suiteOf(definition: Partial<SuiteDefinition> & Pick<SuiteDefinition, 'cases' | 'target'>): ResolvedSuite {
  return resolveSuite({ name: 'unit', scorers: [exact()], ...definition })
}

/** `n` cases c000… whose input and expected are the same string. */
export function echoCases(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const id = `c${String(i).padStart(3, '0')}`
    return { id, input: id, expected: id }
  })
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
