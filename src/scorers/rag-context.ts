// Where the RAG scorers find the retrieved context: the case's `context`, or (with `contextPath`) a
// field of the answer, for a target that returns what it retrieved.
import type { ScorerArgs } from '../suite/types.js'
import { isMissing, requirePath, select, structured, type PathStep, type WholeAnswerArgs } from './field-path.js'

export interface ContextOptions {
  /** Read the context from this field of the answer (e.g. "contexts") instead of the case's `context`. */
  contextPath?: string
}

export type ContextSource = readonly PathStep[] | undefined

export function contextSource(options: ContextOptions, owner: string): ContextSource {
  return options.contextPath === undefined ? undefined : requirePath(options.contextPath, `${owner} (contextPath)`)
}

/** The context's passages, or an Error that says where it was looked for (the case then errors). */
export function contextOf(args: ScorerArgs, source: ContextSource, contextPath: string | undefined): string[] {
  let raw: unknown
  if (source === undefined) {
    raw = args.context
    if (raw === undefined) throw new Error('the case declares no context (give the case a context, or the scorer a contextPath into the answer)')
  } else {
    const whole = (args as WholeAnswerArgs).wholeOutput
    const read = whole !== undefined ? { value: whole } : structured(args.output)
    raw = 'value' in read ? select(read.value, source) : undefined
    if (raw === undefined || isMissing(raw)) throw new Error(`the answer has no context at ${contextPath} (contextPath)`)
  }
  const passages = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))) : undefined
  if (passages === undefined || passages.length === 0) throw new Error('the context must be a string or a non-empty array of passages')
  return passages
}

/** The passages as the judge reads them, numbered from 1. */
export function numbered(passages: readonly string[]): string {
  return passages.map((p, i) => `[${i + 1}] ${p}`).join('\n\n')
}
