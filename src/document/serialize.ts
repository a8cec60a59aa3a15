// The one serializer of run documents and case results. The journal writes case records with
// serializeCase too, so a resumed run's reused cases are the same bytes an uninterrupted run writes.
import { sampleAnswerToDisk, usageToDisk } from './answer-shape.js'
import { HEADER_KEYS, type CaseResult, type RunDocument, type RunHeader, type SampleResult } from './schema.js'

function sampleToJson(sample: SampleResult): Record<string, unknown> {
  const out: Record<string, unknown> = {
    pass: sample.pass,
    score: sample.score,
    scorers: sample.scorers.map((s) => {
      const score: Record<string, unknown> = { name: s.name, pass: s.pass, score: s.score, reason: s.reason }
      if (s.usage !== undefined) score.usage = usageToDisk(s.usage)
      if (s.borderline === true) score.borderline = true
      return score
    }),
  }
  sampleAnswerToDisk(sample, out)
  return out
}

/** A case result in its fixed key order, as a plain object ready for JSON.stringify. */
export function caseToJson(result: CaseResult): Record<string, unknown> {
  const out: Record<string, unknown> = {
    case_id: result.case_id,
    verdict: result.verdict,
    score: result.score,
    passed_samples: result.passed_samples,
    reason: result.reason,
    error: result.error === null ? null : { cause: result.error.cause, message: result.error.message },
    samples: result.samples.map(sampleToJson),
  }
  if (result.sampling_stopped !== undefined) out.sampling_stopped = result.sampling_stopped
  if (result.target_cost !== undefined) out.target_cost = result.target_cost
  if (result.tags !== undefined) out.tags = result.tags
  if (result.metadata !== undefined) out.metadata = result.metadata
  if (result.cluster !== undefined) out.cluster = result.cluster
  if ('input' in result && result.input !== undefined) out.input = result.input
  if ('expected' in result && result.expected !== undefined) out.expected = result.expected
  return out
}

export function serializeCase(result: CaseResult): string {
  return JSON.stringify(caseToJson(result))
}

export function headerToJson(header: RunHeader): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of HEADER_KEYS) {
    const value = header[key]
    if (value !== undefined) out[key] = value
  }
  return out
}

/**
 * The document's bytes: one header field per line in HEADER_KEYS order, then the aggregates, then
 * one result per line. The bounded header reader relies on this layout.
 */
export function serializeRun(doc: Omit<RunDocument, 'results'> & { results: readonly CaseResult[] }): string {
  let text = ''
  for (const line of runLines(doc, doc.results)) text += line
  return text
}

/**
 * The same bytes as serializeRun, one line at a time (newline included), so a writer can stream a
 * large document without holding all of its text at once. The header and aggregates come from
 * `head` and the results from `results`, which lets a writer pass results it did not copy.
 */
export function* runLines(head: RunHeader & Pick<RunDocument, 'aggregates'>, results: readonly CaseResult[] = (head as RunDocument).results): Generator<string> {
  yield '{\n'
  for (const line of headerLines(head)) yield `${line}\n`
  yield `  "aggregates": ${JSON.stringify(head.aggregates)},\n`
  if (results.length === 0) {
    yield '  "results": []\n'
  } else {
    yield '  "results": [\n'
    const last = results.length - 1
    for (let i = 0; i < last; i++) yield `    ${serializeCase(results[i]!)},\n`
    yield `    ${serializeCase(results[last]!)}\n`
    yield '  ]\n'
  }
  yield '}\n'
}

function headerLines(header: RunHeader): string[] {
  return Object.entries(headerToJson(header)).map(([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},`)
}

/** Bytes from the document's start through the marker that ends its header: what a bounded header reader must hold. */
export function documentHeaderBytes(header: RunHeader): number {
  return Buffer.byteLength(`{\n${headerLines(header).join('\n')}`, 'utf8') + Buffer.byteLength(AGGREGATES_MARKER, 'utf8')
}

/** The marker that ends the header in a document digline wrote. */
export const AGGREGATES_MARKER = '\n  "aggregates": '
/** The marker that ends the aggregates (one line, right after the header). */
export const RESULTS_MARKER = '\n  "results": '

/**
 * The header object from the first bytes of a document, without parsing the results; it carries
 * `aggregates` too when the prefix holds that line whole. Returns undefined when the prefix does
 * not contain the whole header in digline's layout.
 */
export function parseHeaderPrefix(prefix: string): unknown {
  const headerEnd = prefix.indexOf(AGGREGATES_MARKER)
  if (headerEnd < 0) return undefined
  const resultsAt = prefix.indexOf(RESULTS_MARKER, headerEnd)
  const end = resultsAt < 0 ? headerEnd : resultsAt
  const head = prefix.slice(0, end).replace(/,\s*$/, '')
  return JSON.parse(`${head}\n}`)
}
