import { lazySchema } from '../suite/zod-on-demand.js'
import type { ChatModel } from '../models/chat-model.js'
import type { ScorerObject } from '../suite/types.js'
import { withPath } from './field-path.js'
import { askJudge, figure, judged, requireJudgeModel, unitOption, type JudgePrompt } from './judge-call.js'
import { block } from './judge-prompt.js'
import { contextOf, contextSource, numbered, type ContextOptions } from './rag-context.js'
import { listed } from './claim-list.js'

export interface ContextRecallOptions extends ContextOptions {
  /** The model that judges: openaiModel(…) or aiSdkModel(…) from 'digline/models'. */
  model: ChatModel
  /** The share of the reference's statements the context must hold (default 0.8). */
  passAt?: number
  /** Read the answer at this field (only `contextPath` reads the answer here); in the config. */
  path?: string
  /** The scorer's name in results (default "context_recall"). */
  name?: string
}

export const CONTEXT_RECALL_TEMPLATE = 'digline-context-recall-v1'

const prompt: JudgePrompt<{ statements: { statement: string; attributed: boolean }[] }> = {
  template: CONTEXT_RECALL_TEMPLATE,
  system: [
    'You check whether retrieved context holds what is needed to give a reference answer.',
    'Break the reference answer into its statements, each a short standalone sentence.',
    'For each statement, decide whether it can be attributed to the context: true only if the context states or directly implies it.',
    '',
    'Reply with a JSON object and nothing else: {"statements": [{"statement": "<the statement>", "attributed": true | false}]}',
  ].join('\n'),
  schemaName: 'context_recall',
  jsonSchema: {
    type: 'object',
    properties: {
      statements: {
        type: 'array',
        items: {
          type: 'object',
          properties: { statement: { type: 'string' }, attributed: { type: 'boolean' } },
          required: ['statement', 'attributed'],
          additionalProperties: false,
        },
      },
    },
    required: ['statements'],
    additionalProperties: false,
  },
  reply: lazySchema((z) => z.object({ statements: z.array(z.object({ statement: z.string(), attributed: z.boolean() }).strict()).min(1) }).strict()),
  what: 'a non-empty list of statements',
}

/**
 * RAG context recall: the judge splits the case's expected answer into statements and says which the
 * context holds; the score is the attributed share. Needs `expected` and a context.
 */
export function contextRecall(options: ContextRecallOptions): ScorerObject {
  const owner = 'scorers.contextRecall()'
  const model = requireJudgeModel(options?.model, owner)
  const passAt = unitOption(options.passAt, 0.8, owner, 'passAt')
  const source = contextSource(options, owner)
  const scorer: ScorerObject = {
    name: options.name ?? 'context_recall',
    config: { model: model.config, template: CONTEXT_RECALL_TEMPLATE, pass_at: passAt, context_path: options.contextPath ?? null },
    passAt,
    async score(args) {
      if (args.expected === undefined) throw new Error('the case declares no expected answer to recall from the context')
      const passages = contextOf(args, source, options.contextPath)
      const user = `Question:\n${block(args.input)}\n\nContext:\n${numbered(passages)}\n\nReference answer:\n${block(args.expected)}`
      const answer = await askJudge(model, prompt, user, args.signal, args.recorded)
      const { statements } = answer.value
      const held = statements.filter((s) => s.attributed).length
      const score = held / statements.length
      const missing = statements.filter((s) => !s.attributed).map((s) => s.statement)
      return judged(
        answer,
        score,
        passAt,
        `${held} of ${statements.length} statements of the reference are in the context (${figure(score)})${listed('missing', missing, args.recorded)}`,
      )
    },
  }
  return withPath(scorer, options.path, owner)
}
