import { lazySchema } from '../suite/zod-on-demand.js'
import type { ChatModel } from '../models/chat-model.js'
import type { ScorerObject } from '../suite/types.js'
import { withPath } from './field-path.js'
import { askJudge, figure, judged, requireJudgeModel, unitOption, type JudgePrompt } from './judge-call.js'
import { block } from './judge-prompt.js'
import { contextOf, contextSource, numbered, type ContextOptions } from './rag-context.js'
import { listed } from './claim-list.js'

export interface FaithfulnessOptions extends ContextOptions {
  /** The model that judges: openaiModel(…) or aiSdkModel(…) from 'digline/models'. */
  model: ChatModel
  /** The share of the answer's claims the context must support (default 0.8). */
  passAt?: number
  /** Score one field of a structured answer (e.g. "answer"); in the config. */
  path?: string
  /** The scorer's name in results (default "faithfulness"). */
  name?: string
}

export const FAITHFULNESS_TEMPLATE = 'digline-faithfulness-v1'

const prompt: JudgePrompt<{ claims: { claim: string; supported: boolean }[] }> = {
  template: FAITHFULNESS_TEMPLATE,
  system: [
    'You check whether an answer is faithful to the retrieved context it was given.',
    'Break the answer into its factual claims, each a short standalone sentence.',
    'For each claim, decide whether the context supports it: supported only if it can be inferred from the context alone, not from your own knowledge.',
    'An answer that makes no factual claim has an empty list.',
    '',
    'Reply with a JSON object and nothing else: {"claims": [{"claim": "<the claim>", "supported": true | false}]}',
  ].join('\n'),
  schemaName: 'faithfulness',
  jsonSchema: {
    type: 'object',
    properties: {
      claims: {
        type: 'array',
        items: { type: 'object', properties: { claim: { type: 'string' }, supported: { type: 'boolean' } }, required: ['claim', 'supported'], additionalProperties: false },
      },
    },
    required: ['claims'],
    additionalProperties: false,
  },
  reply: lazySchema((z) => z.object({ claims: z.array(z.object({ claim: z.string(), supported: z.boolean() }).strict()) }).strict()),
  what: 'a list of claims',
}

/**
 * RAG faithfulness: the judge splits the output into claims and says which the context supports;
 * the score is the supported share (1 for an answer that claims nothing). The context is the case's
 * `context`, or the answer's field at `contextPath`.
 */
export function faithfulness(options: FaithfulnessOptions): ScorerObject {
  const owner = 'scorers.faithfulness()'
  const model = requireJudgeModel(options?.model, owner)
  const passAt = unitOption(options.passAt, 0.8, owner, 'passAt')
  const source = contextSource(options, owner)
  const scorer: ScorerObject = {
    name: options.name ?? 'faithfulness',
    config: { model: model.config, template: FAITHFULNESS_TEMPLATE, pass_at: passAt, context_path: options.contextPath ?? null },
    passAt,
    async score(args) {
      const passages = contextOf(args, source, options.contextPath)
      const user = `Question:\n${block(args.input)}\n\nContext:\n${numbered(passages)}\n\nAnswer:\n${block(args.output)}`
      const answer = await askJudge(model, prompt, user, args.signal, args.recorded)
      const { claims } = answer.value
      const supported = claims.filter((c) => c.supported).length
      const score = claims.length === 0 ? 1 : supported / claims.length
      const said =
        claims.length === 0
          ? 'the answer makes no factual claim'
          : `${supported} of ${claims.length} claims supported by the context (${figure(score)})${listed(
              'unsupported',
              claims.filter((c) => !c.supported).map((c) => c.claim),
              args.recorded,
            )}`
      return judged(answer, score, passAt, said)
    },
  }
  return withPath(scorer, options.path, owner)
}
