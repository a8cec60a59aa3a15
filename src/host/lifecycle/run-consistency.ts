// A run document checked as strictly as the driver builds it (ADR 0163): every sample's pass and
// score, every case's verdict, score, passed samples and reason, and the aggregates are computed
// again from the results by the very code that wrote them, and must be what the document says. A
// document digline could not have written is refused at the first field that disagrees, by its path.
import { caseOutcome, sampleOutcome, samplingBounds, samplingStopFor } from '../../driver/case-verdict.js'
import { aggregate } from '../../driver/aggregate.js'
import type { Aggregates, RunDocument } from '../../document/schema.js'
import { InconsistentRunError } from './errors.js'

type Path = (string | number)[]

interface Disagreement {
  path: Path
  says: unknown
  gives: unknown
  why: string
}

function pathText(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('')
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

function firstInResults(doc: RunDocument): Disagreement | undefined {
  const seen = new Map<string, number>()
  const names = doc.judge_config.scorers.map((s) => s.name)
  for (const [i, result] of doc.results.entries()) {
    const at: Path = ['results', i]
    const earlier = seen.get(result.case_id)
    if (earlier !== undefined) return { path: [...at, 'case_id'], says: result.case_id, gives: undefined, why: `the case is also results[${earlier}]` }
    seen.set(result.case_id, i)
    if (result.verdict === 'error' || result.error !== null) {
      if (result.error === null) return { path: [...at, 'error'], says: null, gives: '{ cause, message }', why: 'an errored case says why it errored' }
      const errored: [keyof typeof result, unknown, unknown][] = [
        ['verdict', result.verdict, 'error'],
        ['score', result.score, null],
        ['passed_samples', result.passed_samples, 0],
        ['reason', result.reason, null],
        ['samples', result.samples.length, 0],
        ['sampling_stopped', result.sampling_stopped, undefined],
      ]
      for (const [field, says, gives] of errored)
        if (says !== gives) return { path: [...at, field], says, gives, why: 'an errored case has no verdict but error, no samples, score or reason' }
      continue
    }
    const misfit = samplingMisfit(result, doc)
    if (misfit !== undefined) return { ...misfit, path: [...at, ...misfit.path] }
    for (const [j, sample] of result.samples.entries()) {
      const scorers = sample.scorers.map((s) => s.name)
      if (!same(scorers, names)) return { path: [...at, 'samples', j, 'scorers'], says: scorers, gives: names, why: "a sample is scored by judge_config's scorers, in order" }
      const outcome = sampleOutcome(sample.scorers)
      for (const field of ['pass', 'score'] as const)
        if (sample[field] !== outcome[field])
          return { path: [...at, 'samples', j, field], says: sample[field], gives: outcome[field], why: "a sample's pass and score come from its scorers" }
    }
    const outcome = caseOutcome(result.samples, doc.rules)
    for (const field of ['verdict', 'passed_samples', 'score', 'reason'] as const)
      if (result[field] !== outcome[field])
        return { path: [...at, field], says: result[field], gives: outcome[field], why: `a case's ${field} comes from its samples and the rules` }
  }
  return undefined
}

/** A judged case took exactly the samples its rules take: `samples`, or with adaptive samples where the stopping rule stops (ADR 0360). */
function samplingMisfit(result: RunDocument['results'][number], doc: RunDocument): Disagreement | undefined {
  const bounds = samplingBounds(doc.rules)
  if (bounds === undefined) {
    if (result.samples.length !== doc.rules.samples)
      return { path: ['samples'], says: result.samples.length, gives: doc.rules.samples, why: 'a judged case has as many samples as rules.samples' }
    if (result.sampling_stopped !== undefined) return { path: ['sampling_stopped'], says: result.sampling_stopped, gives: undefined, why: 'only adaptive samples stop early' }
    return undefined
  }
  const stop = samplingStopFor(result.samples, bounds)
  if (stop === undefined || stop.taken !== result.samples.length)
    return {
      path: ['samples'],
      says: result.samples.length,
      gives: stop?.taken,
      why: 'a judged case takes samples until the stopping rule of rules.min_samples and rules.samples stops it',
    }
  if (result.sampling_stopped !== stop.stopped)
    return { path: ['sampling_stopped'], says: result.sampling_stopped, gives: stop.stopped, why: 'it says why the stopping rule stopped' }
  return undefined
}

function firstInAggregates(doc: RunDocument): Disagreement | undefined {
  // The price table is not in the document, so cost is the one aggregate taken as written.
  const { cost: _cost, ...said } = doc.aggregates
  const { cost: _none, ...given } = aggregate(doc.results, doc.rules)
  for (const field of new Set([...Object.keys(said), ...Object.keys(given)]) as Set<keyof Omit<Aggregates, 'cost'>>)
    if (!same(said[field], given[field])) return { path: ['aggregates', field], says: said[field], gives: given[field], why: 'the aggregates come from the results' }
  const cached = doc.results.reduce((n, r) => n + r.samples.filter((s) => s.cached === true).length, 0)
  if ((doc.cached_answers ?? 0) !== cached)
    return { path: ['cached_answers'], says: doc.cached_answers, gives: cached === 0 ? undefined : cached, why: 'cached_answers counts the samples marked cached' }
  return undefined
}

const shown = (value: unknown): string => (value === undefined ? '(absent)' : JSON.stringify(value))

/** Refuses (InconsistentRunError, naming `file` and the path) a document whose parts contradict each other. */
export function assertConsistentRun(doc: RunDocument, file: string): void {
  const found = firstInResults(doc) ?? firstInAggregates(doc)
  if (found === undefined) return
  const { path, says, gives, why } = found
  const detail =
    gives === undefined && path.at(-1) === 'case_id' ? `case ${shown(says)} appears twice (${why})` : `it says ${shown(says)} where its own results give ${shown(gives)} (${why})`
  throw new InconsistentRunError(
    `refused to import ${file}: it contradicts itself at ${pathText(path)}: ${detail}; digline never writes such a document, so nothing was imported`,
    `import the file \`digline export\` wrote for this run, unedited, or leave ${file} out of the import`,
    path,
  )
}
