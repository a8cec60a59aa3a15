// What a store checks of a run document handed to writeRun, without copying the document: the
// header and aggregates are parsed (small, and their parsed copy fixes the key order written), the
// results are checked one at a time and written as they were given. A document that fails is
// refused exactly as the whole-document check refuses it (same message, same path).
import { lazySchema } from '../suite/zod-on-demand.js'
import { aggregatesSchema, caseResultSchema, runHeaderSchema, type CaseResult, type RunDocument } from '../document/schema.js'
import { fastRunHead, isCanonicalCaseResult } from '../document/fast-shape.js'
import { validateDocument } from './run-checks.js'

const headSchema = lazySchema(() => runHeaderSchema.extend({ aggregates: aggregatesSchema }))

export interface RunToWrite {
  /** Every field but the results, parsed. */
  head: Omit<RunDocument, 'results'>
  /** The results as given (each one checked): the serializer reads only the fields the schema names. */
  results: readonly CaseResult[]
}

function checkedParts(doc: unknown): RunToWrite | undefined {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined
  const { results, ...rest } = doc as Record<string, unknown>
  if (!Array.isArray(results)) return undefined
  const head = fastRunHead(rest) ?? parsedHead(rest)
  if (head === undefined) return undefined
  for (let i = 0; i < results.length; i++) if (!isCanonicalCaseResult(results[i]) && !caseResultSchema.safeParse(results[i]).success) return undefined
  return { head, results: results as CaseResult[] }
}

function parsedHead(rest: Record<string, unknown>): Omit<RunDocument, 'results'> | undefined {
  const parsed = headSchema.safeParse(rest)
  return parsed.success ? parsed.data : undefined
}

/** `description` names the document in a refusal, as validateDocument's `file` does when writing. */
export function checkRunToWrite(doc: RunDocument, description: string): RunToWrite {
  const parts = checkedParts(doc)
  if (parts !== undefined) return parts
  const { results, ...head } = validateDocument(doc, description, 'write')
  return { head, results }
}
