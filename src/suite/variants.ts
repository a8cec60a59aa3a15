// A suite that declares `variants` asks the same cases of several targets in one launch. Each variant
// is a suite of its own to the rest of digline, named `<suite>.<variant>` (ADR 0300): its own key,
// journal, document, resume, baseline and gates, with no new kind of name for the store to learn.
// The variants share the declared suite's budget (split evenly) and its cap on target calls in flight
// (one gate over all of them, ADR 0302).
import { InvalidSuiteError, VariantNameCollisionError } from './errors.js'
import { resolveSuite } from './resolve-suite.js'
import { isSafeSegment, SAFE_SEGMENT_RULE } from './safe-segment.js'
import type { Budget, ResolvedSuite, SuiteDefinition, TargetAnswer, TargetContext, VariantOf } from './types.js'

/** The name a variant's runs are filed under: the suite's name, a dot, the variant's name. */
export function variantSuiteName(suite: string, variant: string): string {
  return `${suite}.${variant}`
}

function refuse(suite: unknown, where: string, message: string, path: (string | number)[]): never {
  const name = typeof suite === 'string' ? `suite ${JSON.stringify(suite)}` : 'an evalSuite() call'
  throw new InvalidSuiteError(`${name} was refused: ${where} ${message}`, `Fix ${where} in the suite file, then run \`vitest run\` again.`, path)
}

/** The suites a definition declares: itself, or one per variant (in declaration order). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any suite, whatever its input, expected and output types
export function resolveSuites(declared: SuiteDefinition<any, any, any>): ResolvedSuite[] {
  const variants: unknown = (declared as { variants?: unknown } | undefined)?.variants
  if (variants === undefined) return [resolveSuite(declared)]
  const name = declared.name
  if (variants === null || typeof variants !== 'object' || Array.isArray(variants))
    refuse(name, 'variants', 'must be an object of targets by variant name, such as { small: target, large: target }', ['variants'])
  if (declared.target !== undefined) refuse(name, 'target', 'is declared beside variants: a suite asks one target, or one target per variant', ['target'])
  const entries = Object.entries(variants as Record<string, SuiteDefinition['target']>)
  if (entries.length === 0) refuse(name, 'variants', 'declares no variant', ['variants'])
  for (const [variant] of entries) {
    if (!isSafeSegment(variant)) refuse(name, `variants.${variant}`, `is not a variant name: it must be one safe path segment (${SAFE_SEGMENT_RULE})`, ['variants', variant])
    if (typeof name === 'string' && !isSafeSegment(variantSuiteName(name, variant)))
      refuse(name, `variants.${variant}`, `makes the suite name ${variantSuiteName(name, variant)}, which is longer than 128 characters`, ['variants', variant])
  }
  const budget = sharedBudget(declared.budget, entries.length, name)
  const gate = new CallGate(declared.concurrency ?? 1)
  return entries.map(([variant, target], position) => {
    const { variants: _declared, ...rest } = declared
    const resolved = resolveSuite({ ...rest, name: variantSuiteName(name, variant), target, ...(budget === undefined ? {} : { budget }) })
    const ask = resolved.ask
    return {
      ...resolved,
      ask: (input: unknown, ctx: TargetContext) => gate.run(ctx.signal, () => ask(input, ctx)),
      variant: { suite: name, name: variant, of: entries.length, position },
    }
  })
}

/** Each variant's even share of the suite's budget, so the launch as a whole stays within it. */
function sharedBudget(budget: unknown, count: number, suite: unknown): Budget | undefined {
  if (budget === null || typeof budget !== 'object') return budget as undefined
  const { usd, calls } = budget as Budget
  if (typeof calls === 'number' && Number.isInteger(calls) && calls > 0 && calls < count)
    refuse(suite, 'budget.calls', `is ${calls}, fewer than one call for each of the ${count} variants, which share it evenly`, ['budget', 'calls'])
  return {
    ...(budget as Budget),
    ...(typeof usd === 'number' && usd > 0 ? { usd: usd / count } : {}),
    ...(typeof calls === 'number' && Number.isInteger(calls) && calls > 0 ? { calls: Math.floor(calls / count) } : {}),
  }
}

/** What a variant's run document and journal header say of it (ADR 0300, 0415). */
export function variantHeader(variant: VariantOf): { suite: string; name: string; position: number } {
  return { suite: variant.suite, name: variant.name, position: variant.position }
}

/** Which variant of which suite a run or a declaration is; undefined for a suite of its own. */
export type VariantIdentity = { suite: string; name: string } | undefined

/** Whether two runs or declarations under one suite name are the same kind: both the same variant, or both suites of their own. */
export function sameVariantIdentity(a: VariantIdentity, b: VariantIdentity): boolean {
  return a === undefined || b === undefined ? a === b : a.suite === b.suite && a.name === b.name
}

/** A variant, or a suite of its own, in words. */
export function describeVariantIdentity(identity: VariantIdentity): string {
  return identity === undefined ? 'a suite of its own' : `variant ${identity.name} of suite ${identity.suite}`
}

/**
 * A suite named like a variant (pick.small) and variant small of suite pick, under one name (ADR 0416):
 * `what` was refused; `one` and `other` say where each side is declared or filed.
 */
export function variantNameCollision(suite: string, what: string, one: string, other: string, nothing: string, next?: string): VariantNameCollisionError {
  return new VariantNameCollisionError(
    `${what}: ${one}, and ${other}; both would be filed under suite ${suite}, with one baseline and one history; ${nothing}`,
    next ?? `Rename the suite of its own (say ${suite.replaceAll('.', '-')}) or the variant in its suite file, then run again`,
    ['name'],
  )
}

/** A first-come, first-served cap on the target calls in flight across every variant of a suite. */
class CallGate {
  private inFlight = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly limit: number) {}

  async run(signal: AbortSignal, call: () => Promise<TargetAnswer>): Promise<TargetAnswer> {
    await this.acquire(signal)
    try {
      return await call()
    } finally {
      this.release()
    }
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason)
    if (this.inFlight < this.limit) {
      this.inFlight++
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal.removeEventListener('abort', abandon)
        this.inFlight++
        resolve()
      }
      const abandon = (): void => {
        const at = this.waiting.indexOf(grant)
        if (at >= 0) this.waiting.splice(at, 1)
        reject(signal.reason)
      }
      signal.addEventListener('abort', abandon, { once: true })
      this.waiting.push(grant)
    })
  }

  private release(): void {
    this.inFlight--
    this.waiting.shift()?.()
  }
}
