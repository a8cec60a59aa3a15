import { lazySchema } from '../suite/zod-on-demand.js'
import type { ChatModel } from '../models/chat-model.js'
import type { ScorerObject } from '../suite/types.js'
import { withPath } from './field-path.js'
import { askJudge, figure, judged, requireJudgeModel, unitOption, type JudgePrompt } from './judge-call.js'
import { JudgeReplyError, block } from './judge-prompt.js'
import { contextOf, contextSource, numbered, type ContextOptions } from './rag-context.js'

export interface ContextPrecisionOptions extends ContextOptions {
  /** The model that judges: openaiModel(…) or aiSdkModel(…) from 'digline/models'. */
  model: ChatModel
  /** The lowest average precision that passes (default 0.5). */
  passAt?: number
  /** Score one field of a structured answer; in the config. */
  path?: string
  /** The scorer's name in results (default "context_precision"). */
  name?: string
}

export const CONTEXT_PRECISION_TEMPLATE = 'digline-context-precision-v1'

const prompt: JudgePrompt<{ verdicts: { passage: number; useful: boolean }[] }> = {
  template: CONTEXT_PRECISION_TEMPLATE,
  system: [
    'You rate retrieved passages, in the order they were retrieved, for one question.',
    'A passage is useful if it helps to arrive at the given answer to the question; otherwise it is not.',
    'Give one verdict for every passage, by its number.',
    '',
    'Reply with a JSON object and nothing else: {"verdicts": [{"passage": <number>, "useful": true | false}]}',
  ].join('\n'),
  schemaName: 'context_precision',
  jsonSchema: {
    type: 'object',
    properties: {
      verdicts: {
        type: 'array',
        items: { type: 'object', properties: { passage: { type: 'integer' }, useful: { type: 'boolean' } }, required: ['passage', 'useful'], additionalProperties: false },
      },
    },
    required: ['verdicts'],
    additionalProperties: false,
  },
  reply: lazySchema((z) => z.object({ verdicts: z.array(z.object({ passage: z.number().int(), useful: z.boolean() }).strict()) }).strict()),
  what: 'a list of passage verdicts',
}

/** Average precision over the ranks: the mean of precision@k at each useful passage (0 when none is useful). */
export function averagePrecision(useful: readonly boolean[]): number {
  let hits = 0
  let sum = 0
  useful.forEach((u, i) => {
    if (!u) return
    hits++
    sum += hits / (i + 1)
  })
  return hits === 0 ? 0 : sum / hits
}

/**
 * RAG context precision: the judge says which retrieved passages help to reach the answer (the
 * case's expected answer, else the output); the score is their average precision by rank, so
 * useful passages ranked first score higher.
 */
export function contextPrecision(options: ContextPrecisionOptions): ScorerObject {
  const owner = 'scorers.contextPrecision()'
  const model = requireJudgeModel(options?.model, owner)
  const passAt = unitOption(options.passAt, 0.5, owner, 'passAt')
  const source = contextSource(options, owner)
  const scorer: ScorerObject = {
    name: options.name ?? 'context_precision',
    config: { model: model.config, template: CONTEXT_PRECISION_TEMPLATE, pass_at: passAt, context_path: options.contextPath ?? null },
    passAt,
    async score(args) {
      const passages = contextOf(args, source, options.contextPath)
      const reference = args.expected === undefined ? `Answer given:\n${block(args.output)}` : `Reference answer:\n${block(args.expected)}`
      const user = `Question:\n${block(args.input)}\n\n${reference}\n\nPassages:\n${numbered(passages)}`
      const answer = await askJudge(model, prompt, user, args.signal, args.recorded)
      const byPassage = new Map(answer.value.verdicts.map((v) => [v.passage, v.useful]))
      const useful = passages.map((_, i) => byPassage.get(i + 1))
      const unrated = useful.findIndex((u) => u === undefined)
      if (unrated !== -1 || byPassage.size !== passages.length) {
        throw new JudgeReplyError(
          `the judge's reply rates ${byPassage.size} passages by number, not each of the ${passages.length} once${unrated === -1 ? '' : ` (passage ${unrated + 1} has no verdict)`}`,
        )
      }
      const score = averagePrecision(useful as boolean[])
      const ranks = useful.flatMap((u, i) => (u === true ? [i + 1] : []))
      const said =
        ranks.length === 0
          ? `none of the ${passages.length} passages is useful`
          : `useful passages at ranks ${ranks.join(', ')} of ${passages.length}: average precision ${figure(score)}`
      return judged(answer, score, passAt, said)
    },
  }
  return withPath(scorer, options.path, owner)
}
