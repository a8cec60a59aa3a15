// Validates a suite definition and turns it into the one shape the driver and the host use.
import { lazySchema } from './zod-on-demand.js'
import { definitionSurelyValid } from './definition-check.js'
import { InvalidSuiteError } from './errors.js'
import { configHash, casesDigest } from './hashing.js'
import { refuseNotPlainSuiteData } from './plain-suite-data.js'
import { isSafeSegment, SAFE_SEGMENT_RULE } from './safe-segment.js'
import { describeZodError } from './issue-sentence.js'
import type { InlineCasesDefinition, ResolvedScorer, ResolvedSuite, Scorer, SuiteDefinition, TargetAnswer, TargetContext } from './types.js'
import { isTag, TAG_RULE } from './slice.js'
import { isDataset } from './dataset.js'
import { agreementAmbiguity } from './agreement-fraction.js'
import { isJudgeConfig } from './judge-scorers.js'
import { resolveConversation } from './conversation.js'

// Built on first use: a definition definitionSurelyValid accepts never reaches it (ADR 0430).
export const definitionSchema = lazySchema((z) => {
  const unit = z.number().min(0).max(1)
  /** A relative rise: 0.2 allows 20% more than the baseline. */
  const rise = z.number().min(0).max(100)
  return z.object({
    name: z.string().refine(isSafeSegment, { message: `must be one safe path segment (${SAFE_SEGMENT_RULE})` }),
    cases: z
      .array(
        z.object({
          id: z.string().refine(isSafeSegment, { message: `must be one safe path segment (${SAFE_SEGMENT_RULE})` }),
          input: z.unknown(),
          expected: z.unknown().optional(),
          metadata: z.record(z.string(), z.unknown()).optional(),
          tags: z.array(z.string().refine(isTag, { message: `must be a tag (${TAG_RULE})` })).optional(),
          cluster: z.string().min(1).optional(),
        }),
      )
      .min(1, { message: 'a suite needs at least one case' }),
    target: z.union([
      z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function', { message: 'must be a function or { ask }' }),
      z.object({
        config: z.record(z.string(), z.unknown()).optional(),
        ask: z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function', { message: 'ask must be a function' }),
      }),
    ]),
    samples: z
      .union([
        z.number().int().min(1).max(1000),
        z.strictObject({ min: z.number().int().min(1).max(1000), max: z.number().int().min(1).max(1000) }).refine((s) => s.min <= s.max, { message: 'min must not exceed max' }),
      ])
      .optional(),
    minAgreement: unit.optional(),
    scorers: z
      .array(
        z.union([
          z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function'),
          z.object({
            name: z.string().min(1),
            config: z.record(z.string(), z.unknown()).optional(),
            passAt: unit.optional(),
            score: z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function', { message: 'score must be a function' }),
          }),
        ]),
      )
      .min(1, { message: 'a suite needs at least one scorer' }),
    thresholds: z.object({ passRate: unit.optional(), meanScore: unit.optional() }).strict().optional(),
    tolerances: z
      .object({
        passRate: unit.optional(),
        meanScore: unit.optional(),
        costPerCase: rise.optional(),
        tokensPerCase: rise.optional(),
        latencyPerCase: rise.optional(),
        toolCallsPerCase: rise.optional(),
        stepsPerCase: rise.optional(),
      })
      .strict()
      .optional(),
    gateOn: z.enum(['verdicts', 'samples']).optional(),
    calibration: z
      .object({
        minLabels: z.number().int().min(1).max(1_000_000),
        minAgreement: z.number().gt(0, { message: 'must be a kappa above 0 (0 is what chance alone agrees)' }).max(1),
      })
      .strict()
      .optional(),
    cluster: z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function', { message: 'must be a function of the case that returns its cluster' }).optional(),
    recordResponses: z.boolean().optional(),
    borderline: z.number().gt(0).lt(0.5, { message: 'must be a band below 0.5 (a band of 0.5 would hold every pass and fail of a pass/fail scorer)' }).optional(),
    concurrency: z.number().int().min(1).max(1024).optional(),
    artifacts: z
      .array(
        z
          .string()
          .min(1)
          .refine((p) => !p.startsWith('!'), { message: 'must not be a negated glob (list only the files or globs to hash)' }),
      )
      .optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    timeout: z.number().int().nonnegative().optional(),
    prices: z
      .record(z.string().min(1), z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }).strict(), {
        message: 'must map model ids to { input, output } prices per million tokens',
      })
      .optional(),
    budget: z
      .object({ usd: z.number().positive().optional(), calls: z.number().int().positive().optional() })
      .strict()
      .refine((b) => b.usd !== undefined || b.calls !== undefined, { message: 'must set usd, calls or both' })
      .optional(),
    cache: z.boolean().optional(),
    conversation: z.unknown().optional(),
    toolReplay: z.enum(['off', 'record', 'replay', 'strict'], { message: "must be 'off', 'record', 'replay' or 'strict'" }).optional(),
  })
})

/** The cases with the cluster the suite's `cluster` function gives each (ADR 0243); as declared without one. */
function withClusters(def: InlineCasesDefinition): InlineCasesDefinition['cases'] {
  const of = def.cluster
  if (of === undefined) return def.cases
  return def.cases.map((c, i) => {
    const cluster = of(c)
    if (cluster === undefined) return c
    if (typeof cluster !== 'string' || cluster === '')
      refuse(['cluster'], `returned ${JSON.stringify(cluster)} for case ${JSON.stringify(c.id)} (index ${i}); it must return a non-empty string or undefined`, def.name)
    return { ...c, cluster }
  })
}

function refuse(path: readonly PropertyKey[], message: string, suite: unknown): never {
  const where = path.length === 0 ? 'the suite definition' : path.map(String).join('.')
  const name = typeof suite === 'string' ? `suite ${JSON.stringify(suite)}` : 'an evalSuite() call'
  throw new InvalidSuiteError(
    `${name} was refused: ${where} ${message}`,
    `Fix ${where} in the suite file, then run \`vitest run\` again.`,
    path.map((p) => (typeof p === 'number' ? p : String(p))),
  )
}

function resolveScorer(scorer: Scorer, index: number, seen: Set<string>): ResolvedScorer {
  const resolved: ResolvedScorer =
    typeof scorer === 'function'
      ? { name: scorer.name || `scorer_${index + 1}`, config: {}, passAt: 0.5, score: scorer as ResolvedScorer['score'] }
      : { name: scorer.name, config: scorer.config ?? {}, passAt: scorer.passAt ?? 0.5, score: (args) => scorer.score(args as never) }
  if (seen.has(resolved.name)) refuse(['scorers', index], `has the name ${JSON.stringify(resolved.name)} twice; scorer names must be unique`, undefined)
  seen.add(resolved.name)
  return resolved
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any suite, whatever its input, expected and output types
export function resolveSuite(declared: SuiteDefinition<any, any, any>): ResolvedSuite {
  const datasets = casesFromDataset(declared)
  const definition = datasets === undefined ? declared : { ...declared, cases: (declared.cases as { cases: unknown }).cases }
  const parsed = definitionSurelyValid(definition) ? undefined : definitionSchema.safeParse(definition)
  if (parsed !== undefined && !parsed.success) {
    const { path, sentence } = describeZodError(parsed.error, definition, 'suite', definitionSchema)
    const name = (definition as { name?: unknown } | undefined)?.name
    const where = path.length === 0 ? 'the suite definition' : path.map(String).join('.')
    throw new InvalidSuiteError(
      `${typeof name === 'string' ? `suite ${JSON.stringify(name)}` : 'an evalSuite() call'} was refused: ${sentence}`,
      `Fix ${where} in the suite file, then run \`vitest run\` again.`,
      path,
    )
  }
  const def = definition as InlineCasesDefinition
  if (def.budget?.usd !== undefined && def.prices === undefined)
    refuse(['budget', 'usd'], "needs prices: spend is counted from the tokens the target and judges report, priced by the suite's prices table", def.name)
  const bounds = typeof def.samples === 'object' ? def.samples : { min: def.samples ?? 1, max: def.samples ?? 1 }
  const ambiguous = agreementAmbiguity(def.minAgreement ?? 1, bounds.max)
  if (ambiguous !== undefined) refuse(['minAgreement'], ambiguous, def.name)
  const ids = new Set<string>()
  def.cases.forEach((c, i) => {
    if (ids.has(c.id)) refuse(['cases', i, 'id'], `repeats the case id ${JSON.stringify(c.id)}; case ids must be unique`, def.name)
    ids.add(c.id)
  })
  const seen = new Set<string>()
  const scorers = def.scorers.map((s, i) => resolveScorer(s, i, seen))
  refuseNotPlainSuiteData(def, scorers)
  const target = def.target
  if (target === undefined) refuse(['target'], 'is missing: a suite declares a target (or variants)', def.name)
  const ask =
    typeof target === 'function'
      ? async (input: unknown, ctx: TargetContext): Promise<TargetAnswer> => ({ output: await target(input, ctx) })
      : async (input: unknown, ctx: TargetContext): Promise<TargetAnswer> => {
          const answer = await target.ask(input, ctx)
          if (answer === null || typeof answer !== 'object' || !('output' in answer)) {
            throw new TypeError('target.ask() must return { output, model? }; a bare function target returns the output itself')
          }
          return answer
        }
  const rules = {
    samples: bounds.max,
    // { min: 3, max: 3 } is three samples, with the hash of `samples: 3`.
    ...(bounds.min < bounds.max ? { min_samples: bounds.min } : {}),
    min_agreement: def.minAgreement ?? 1,
    thresholds: dropUndefined({ pass_rate: def.thresholds?.passRate, mean_score: def.thresholds?.meanScore }),
    tolerances: dropUndefined({
      pass_rate: def.tolerances?.passRate,
      mean_score: def.tolerances?.meanScore,
      cost_per_case: def.tolerances?.costPerCase,
      tokens_per_case: def.tolerances?.tokensPerCase,
      latency_per_case: def.tolerances?.latencyPerCase,
      tool_calls_per_case: def.tolerances?.toolCallsPerCase,
      steps_per_case: def.tolerances?.stepsPerCase,
    }),
    ...(def.gateOn === 'samples' ? { gate_on: 'samples' as const } : {}),
    ...(def.calibration === undefined ? {} : { calibration: { min_labels: def.calibration.minLabels, min_agreement: def.calibration.minAgreement } }),
  }
  if (def.calibration !== undefined && !scorers.some((s) => isJudgeConfig(s.config)))
    refuse(
      ['calibration'],
      'is set, but no scorer of the suite is a judge (a scorer whose config names a model, as every built-in judge does): there is nothing to calibrate',
      def.name,
    )
  const conversation = resolveConversation(
    def.conversation,
    def.cases,
    scorers.map((s) => s.name),
    def.name,
  )
  if (rules.tolerances.cost_per_case !== undefined && def.prices === undefined) {
    refuse(['tolerances', 'costPerCase'], 'needs `prices` (per million tokens by model id): without them the run records no cost to gate', def.name)
  }
  return {
    name: def.name,
    cases: withClusters(def),
    rules,
    scorers,
    targetConfig: typeof target === 'function' ? {} : (target.config ?? {}),
    ask,
    recordResponses: def.recordResponses ?? false,
    concurrency: def.concurrency ?? 1,
    artifacts: def.artifacts ?? [],
    metadata: def.metadata ?? {},
    timeout: def.timeout ?? 0,
    ...(def.prices === undefined ? {} : { prices: def.prices }),
    ...(def.budget === undefined ? {} : { budget: { ...def.budget } }),
    ...(def.cache === undefined ? {} : { cache: def.cache }),
    ...(def.toolReplay === undefined ? {} : { toolReplay: def.toolReplay }),
    datasets: datasets ?? {},
    ...(def.borderline === undefined ? {} : { borderline: def.borderline }),
    ...(conversation === undefined ? {} : { conversation }),
  }
}

/** The files of a dataset given as `cases`; undefined for inline cases. A dataset still being read (not awaited) is refused. */
function casesFromDataset(definition: SuiteDefinition): Record<string, string> | undefined {
  const cases = (definition as { cases?: unknown } | undefined)?.cases
  if (isDataset(cases)) return { ...cases.files }
  if (typeof (cases as { then?: unknown } | undefined)?.then === 'function') {
    refuse(['cases'], 'is a dataset that is still being read: write `cases: await dataset(…)` (the suite file may await at its top level)', definition.name)
  }
  return undefined
}

function dropUndefined<T extends Record<string, number | undefined>>(value: T): { [K in keyof T]?: number } {
  const out: Record<string, number> = {}
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v
  return out as { [K in keyof T]?: number }
}

export function suiteIdentity(suite: ResolvedSuite): { configHash: string; casesDigest: string } {
  return { configHash: configHash(suite.rules, suite.scorers, suite.conversation?.user), casesDigest: casesDigest(suite.cases) }
}
