// Seeded random values (a run document's shapes and the pieces they are made of), each mutated once
// somewhere inside, and the comparisons that say whether zod gave a value back unchanged: for the
// property tests of the hand-written checks.
export type Json = Record<string, unknown>

export class Gen {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  chance(p = 0.5): boolean {
    return this.next() < p
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }
  text(): string {
    return this.pick(['', 'a', 'exact', 'naïve ✓', 'line\nbreak', '"quoted"', '__proto__', 'x'.repeat(this.int(40))])
  }
  unit(): number {
    return this.pick([0, 1, 0.5, -0, this.next(), 1 / 3])
  }
  count(): number {
    return this.pick([0, 1, 3, 1000, Number.MAX_SAFE_INTEGER])
  }
  amount(): number {
    return this.pick([0, 0.0001, 12.5, 1e300])
  }
  json(depth = 0): unknown {
    const kind = this.int(depth > 2 ? 4 : 6)
    if (kind === 0) return null
    if (kind === 1) return this.chance()
    if (kind === 2) return this.pick([0, -1.5, 1e21, 42])
    if (kind === 3) return this.text()
    if (kind === 4) return Array.from({ length: this.int(3) }, () => this.json(depth + 1))
    const out: Json = {}
    for (let i = this.int(3); i > 0; i--) out[this.pick(['k', 'model', 'a b', '0'])] = this.json(depth + 1)
    return out
  }
  usage(): Json {
    return { input_tokens: this.count(), output_tokens: this.count() }
  }
  scorer(): Json {
    const s: Json = { name: this.text(), pass: this.chance(), score: this.unit(), reason: this.chance() ? null : this.text() }
    if (this.chance(0.3)) s.usage = this.usage()
    return s
  }
  sample(): Json {
    const s: Json = { pass: this.chance(), score: this.unit(), scorers: Array.from({ length: this.int(3) }, () => this.scorer()) }
    if (this.chance(0.3)) s.usage = this.usage()
    if (this.chance(0.3)) s.latency_ms = this.count()
    if (this.chance(0.2)) s.cached = true
    if (this.chance(0.3)) s.output = this.json()
    return s
  }
  caseResult(): Json {
    const c: Json = {
      case_id: this.text(),
      verdict: this.pick(['pass', 'fail', 'error']),
      score: this.chance(0.2) ? null : this.unit(),
      passed_samples: this.count(),
      reason: this.chance() ? null : this.text(),
      error: this.chance(0.7) ? null : { cause: this.pick(['target', 'scorer', 'mapper']), message: this.text() },
      samples: Array.from({ length: this.int(4) }, () => this.sample()),
    }
    if (this.chance(0.3)) c.target_cost = this.amount()
    if (this.chance(0.3)) c.input = this.json()
    if (this.chance(0.3)) c.expected = this.json()
    return c
  }
  record(value: () => unknown): Json {
    const out: Json = {}
    for (let i = this.int(3); i > 0; i--) out[this.pick(['k', 'judge', 'data/x.jsonl', '7'])] = value()
    return out
  }
  optionalUnits(keys: readonly string[], value: () => number = () => this.unit()): Json {
    const out: Json = {}
    for (const key of keys) if (this.chance()) out[key] = value()
    return out
  }
  document(): Json {
    const doc: Json = {
      schema_version: 1,
      digline_version: this.text(),
      tenant: this.text(),
      environment: this.text(),
      suite: this.text(),
      created_at: this.pick(['2026-11-29T22:39:56.123456Z', '2024-02-29T00:00:00.000000Z', '0099-12-31T23:59:59.999999Z']),
      config_hash: this.pick(['3f9a0c1b2d4e', '000000000000']),
    }
    if (this.chance(0.3)) doc.rejudged_from = this.text()
    if (this.chance(0.3)) doc.rejudged_from_suite = this.text()
    if (this.chance()) doc.git_commit = this.text()
    Object.assign(doc, {
      record_responses: this.chance(),
      target_config: this.record(() => this.json()),
      judge_config: { scorers: Array.from({ length: this.int(3) }, () => ({ name: this.text(), config: this.record(() => this.json()), pass_at: this.pick([0.5, 1, -2]) })) },
      artifacts: this.record(() => this.text()),
      metadata: this.record(() => this.json()),
      rules: {
        samples: this.pick([1, 3]),
        min_agreement: this.unit(),
        thresholds: this.optionalUnits(['pass_rate', 'mean_score']),
        tolerances: {
          ...this.optionalUnits(['pass_rate', 'mean_score']),
          ...this.optionalUnits(['cost_per_case', 'tokens_per_case', 'latency_per_case'], () => this.pick([0, 20, 100])),
        },
      },
      observed: { target_model: this.chance() ? null : this.text(), judge_models: this.record(() => this.text()) },
    })
    if (this.chance(0.3)) doc.cached_answers = this.pick([1, 7])
    const aggregates: Json = {
      cases: this.count(),
      passed: this.count(),
      failed: this.count(),
      errored: this.count(),
      pass_rate: this.chance(0.2) ? null : this.unit(),
      pass_rate_ci95: this.chance(0.2) ? null : { low: this.unit(), high: this.unit() },
      mean_score: this.chance(0.2) ? null : this.unit(),
      samples_per_case: this.pick([1, 5]),
    }
    if (this.chance(0.3)) aggregates.usage = this.usage()
    if (this.chance(0.3)) aggregates.judge_usage = this.usage()
    if (this.chance(0.3)) aggregates.cost = { target: this.amount(), judge: this.amount(), total: this.amount(), unpriced: this.chance() ? [] : [this.text()] }
    doc.aggregates = aggregates
    doc.results = Array.from({ length: this.int(4) }, () => this.caseResult())
    return doc
  }
  baseline(): Json {
    const doc = this.document()
    const { aggregates, results, ...header } = doc
    // As a baseline file has them: the two promotion fields right before aggregates.
    return { ...header, promoted_at: this.text(), promoted_from: this.pick(['20261129T223956123456Z-3f9a0c1b2d4e', 'not-a-key']), aggregates, results }
  }
}

export const BAD_VALUES: unknown[] = [NaN, Infinity, -Infinity, -1, 0.5, 1.5, 2, 101, 2 ** 53, -0, 1e300, '1', '', 'pass', null, true, false, [], {}, [1], undefined, 'target']

function containers(value: unknown, path: (string | number)[] = [], out: { path: (string | number)[]; at: Json | unknown[] }[] = []) {
  if (typeof value === 'object' && value !== null) {
    out.push({ path, at: value as Json })
    for (const [k, v] of Object.entries(value)) containers(v, [...path, Array.isArray(value) ? Number(k) : k], out)
  }
  return out
}

/** One change somewhere inside: a value replaced, a key removed or added, keys reordered, a `__proto__` key. */
export function mutate(g: Gen, value: Json): Json {
  const copy = structuredClone(value)
  const places = containers(copy)
  const { at } = g.pick(places)
  const keys = Object.keys(at)
  const kind = g.int(keys.length === 0 ? 2 : 6)
  if (Array.isArray(at)) {
    if (kind < 2) at.push(g.pick(BAD_VALUES))
    else if (kind < 4) at.splice(g.int(at.length), 1)
    else at[g.int(at.length)] = g.pick(BAD_VALUES)
  } else if (kind === 0) {
    at[g.pick(['extra', 'usage', 'cached', 'output', 'promoted_at', 'kind'])] = g.pick(BAD_VALUES)
  } else if (kind === 1) {
    // As JSON.parse gives it: an own key named __proto__ (an array from JSON has elements only).
    Object.defineProperty(at, '__proto__', { value: g.pick(BAD_VALUES), enumerable: true, writable: true, configurable: true })
  } else if (kind === 2) {
    delete at[g.pick(keys)]
  } else if (kind === 3) {
    // The first key moved last: the same object in another key order.
    const first = keys[0]!
    const moved = at[first]
    delete at[first]
    at[first] = moved
  } else {
    at[g.pick(keys)] = g.pick(BAD_VALUES)
  }
  return copy
}

/** Same keys in the same order, and the same values (Object.is for leaves), all the way down. */
export function sameInOrder(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b)
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Reflect.ownKeys(a)
  const kb = Reflect.ownKeys(b)
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameInOrder((a as Json)[k as string], (b as Json)[k as string]))
}

/** Below the top level as it is; the top level with the same keys, in any order. */
export function sameBelowTop(zodOut: Json, input: Json): boolean {
  const kz = Object.keys(zodOut)
  const ki = Reflect.ownKeys(input)
  return kz.length === ki.length && kz.every((k) => Object.hasOwn(input, k) && sameInOrder(zodOut[k], input[k]))
}
