// The scorer library's judges through the real `openai` SDK against the loopback chat server: what
// each asks, how its reply scores, its calls counted, its prompt's version pinned to the prompt's
// text, and reasons that quote nothing of the answer when answers are not recorded.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readDataset } from '../../../src/suite/dataset.js'
import { openaiModel } from '../../../src/models/index.js'
import { execute } from '../../../src/driver/execute.js'
import { sha256Hex } from '../../../src/suite/hashing.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import { JudgeReplyError, scorers } from '../../../src/scorers/index.js'
import { averagePrecision } from '../../../src/scorers/context-precision.js'
import type { ScoreResult, ScorerArgs, ScorerObject } from '../../../src/suite/types.js'
import { startChatServer, type ChatServer } from '../../helpers/chat-server.js'
import { hashWith } from './helpers.js'

let server: ChatServer
beforeAll(async () => {
  server = await startChatServer(() => ({ reply: '{}' }))
})
afterAll(() => server.close())

const judgeModel = () => openaiModel({ model: 'judge-test', baseURL: server.url, apiKey: 'sk-test-judges-0000', retry: { attempts: 1, baseMs: 1, maxMs: 1 } })

/** Each call to the judge answers `reply` (JSON of it); returns a counter of the calls made since. */
function judgeSays(reply: unknown, model = 'judge-2026-01', usage = { prompt_tokens: 40, completion_tokens: 8 }) {
  const start = server.requests.length
  server.script = () => ({ reply: JSON.stringify(reply), model, usage })
  return { calls: () => server.requests.length - start, last: () => server.requests.at(-1)! }
}

const PII = 'Jane Roe, card 4111 1111'
const args = (over: Partial<ScorerArgs> = {}): ScorerArgs => ({
  input: 'Who paid, and how?',
  output: `${PII} paid`,
  expected: 'Jane Roe paid by card',
  caseId: 'c',
  recorded: true,
  ...over,
})
const run = async (scorer: ScorerObject, over: Partial<ScorerArgs> = {}) => (await scorer.score(args(over))) as ScoreResult

describe('factuality', () => {
  it('asks whether the facts match the expected answer; each choice has its score; passes at 0.5', async () => {
    const judge = judgeSays({ reasoning: 'adds the card', choice: 'superset' })
    const scorer = scorers.factuality({ model: judgeModel() })
    expect(await run(scorer)).toEqual({ pass: true, score: 0.6, reason: 'superset (0.60): adds the card', model: 'judge-2026-01', usage: { input_tokens: 40, output_tokens: 8 } })
    expect(judge.calls()).toBe(1)
    expect(judge.last().body.messages![0]!.content).toContain('compare the facts of a submitted answer with an expert answer')
    expect(judge.last().user).toBe(`Question:\nWho paid, and how?\n\nExpert answer:\nJane Roe paid by card\n\nSubmission:\n${PII} paid`)
    judgeSays({ reasoning: 'less', choice: 'subset' })
    expect(await run(scorer)).toMatchObject({ pass: false, score: 0.4 })
    judgeSays({ reasoning: 'no', choice: 'disagrees' })
    expect(await run(scorer)).toMatchObject({ pass: false, score: 0 })
    await expect(run(scorer, { expected: undefined })).rejects.toThrow(/no expected answer/)
    judgeSays({ reasoning: 'x', choice: 'maybe' })
    await expect(run(scorer)).rejects.toThrow(JudgeReplyError)
  })
})

describe('closedQa', () => {
  it('asks yes or no, with the criteria in the prompt and the expected value as the reference', async () => {
    const judge = judgeSays({ reasoning: 'correct', answer: 'yes' })
    const scorer = scorers.closedQa({ model: judgeModel(), criteria: 'names the payer' })
    expect(await run(scorer)).toMatchObject({ pass: true, score: 1, reason: 'yes: correct' })
    expect(judge.last().body.messages![0]!.content).toContain('The answer must be correct, and: names the payer')
    expect(judge.last().user).toContain('Reference answer:\nJane Roe paid by card')
    judgeSays({ reasoning: 'wrong', answer: 'no' })
    expect(await run(scorer, { expected: undefined })).toMatchObject({ pass: false, score: 0, reason: 'no: wrong' })
    expect(server.requests.at(-1)!.user).not.toContain('Reference answer')
    expect(hashWith(scorer)).not.toBe(hashWith(scorers.closedQa({ model: judgeModel(), criteria: 'names the card' })))
  })
})

describe('answerRelevance', () => {
  it('scores 1..5 on a relevance rubric without showing the reference; passes at 4', async () => {
    const judge = judgeSays({ reasoning: 'half on topic', score: 3 })
    const scorer = scorers.answerRelevance({ model: judgeModel() })
    expect(await run(scorer)).toMatchObject({ pass: false, score: 0.5, reason: '3/5: half on topic' })
    expect(judge.last().body.messages![0]!.content).toContain('Answer relevance (digline-answer-relevance-v1)')
    expect(judge.last().user).not.toContain('Reference answer')
    expect(scorer.name).toBe('answer_relevance')
  })
})

describe('the RAG judges', () => {
  const context = ['Jane Roe paid the invoice.', 'Payment was by card.', 'The office is in Leeds.']

  it('faithfulness: the supported share of the claims; the context numbered in the prompt', async () => {
    const judge = judgeSays({
      claims: [
        { claim: 'Jane Roe paid', supported: true },
        { claim: 'card 4111 1111', supported: false },
      ],
    })
    const scorer = scorers.faithfulness({ model: judgeModel() })
    expect(await run(scorer, { context })).toMatchObject({ pass: false, score: 0.5, reason: '1 of 2 claims supported by the context (0.50); unsupported: "card 4111 1111"' })
    expect(judge.last().user).toContain('Context:\n[1] Jane Roe paid the invoice.\n\n[2] Payment was by card.')
    judgeSays({ claims: [] })
    expect(await run(scorer, { context: 'one passage' })).toMatchObject({ pass: true, score: 1, reason: 'the answer makes no factual claim' })
    await expect(run(scorer)).rejects.toThrow(/declares no context/)
  })

  it('faithfulness with path and contextPath: the answer field judged against the passages the target returned', async () => {
    const judge = judgeSays({ claims: [{ claim: 'paid', supported: true }] })
    const scorer = scorers.faithfulness({ model: judgeModel(), path: 'answer', contextPath: 'retrieved' })
    const output = JSON.stringify({ answer: 'Jane paid', retrieved: ['She paid.'] })
    expect(await run(scorer, { output })).toMatchObject({ pass: true, score: 1 })
    expect(judge.last().user).toBe('Question:\nWho paid, and how?\n\nContext:\n[1] She paid.\n\nAnswer:\nJane paid')
    expect(scorer.config).toMatchObject({ path: 'answer', context_path: 'retrieved' })
    await expect(run(scorer, { output: JSON.stringify({ answer: 'x' }) })).rejects.toThrow('the answer has no context at retrieved (contextPath)')
  })

  it('contextPrecision: the average precision of the useful passages by rank; every passage must be rated', async () => {
    expect(averagePrecision([true, false, true])).toBeCloseTo((1 + 2 / 3) / 2, 12)
    expect(averagePrecision([false, true])).toBe(0.5)
    expect(averagePrecision([false, false])).toBe(0)
    const judge = judgeSays({
      verdicts: [
        { passage: 1, useful: true },
        { passage: 2, useful: false },
        { passage: 3, useful: true },
      ],
    })
    const scorer = scorers.contextPrecision({ model: judgeModel() })
    expect(await run(scorer, { context })).toMatchObject({ pass: true, score: (1 + 2 / 3) / 2, reason: 'useful passages at ranks 1, 3 of 3: average precision 0.83' })
    expect(judge.last().user).toContain('Reference answer:\nJane Roe paid by card')
    judgeSays({ verdicts: [{ passage: 1, useful: true }] })
    await expect(run(scorer, { context })).rejects.toThrow('rates 1 passages by number, not each of the 3 once (passage 2 has no verdict)')
  })

  it('contextRecall: the attributed share of the expected answer’s statements; needs expected', async () => {
    judgeSays({
      statements: [
        { statement: 'Jane Roe paid', attributed: true },
        { statement: 'by card', attributed: true },
        { statement: 'on Monday', attributed: false },
      ],
    })
    const scorer = scorers.contextRecall({ model: judgeModel() })
    expect(await run(scorer, { context })).toMatchObject({
      pass: false,
      score: 2 / 3,
      reason: '2 of 3 statements of the reference are in the context (0.67); missing: "on Monday"',
    })
    await expect(run(scorer, { context, expected: undefined })).rejects.toThrow(/no expected answer/)
  })
})

describe('privacy and versions', () => {
  const everyJudge = (): [string, ScorerObject, unknown][] => [
    ['factuality', scorers.factuality({ model: judgeModel() }), { reasoning: `it says ${PII}`, choice: 'disagrees' }],
    ['closedQa', scorers.closedQa({ model: judgeModel() }), { reasoning: `it says ${PII}`, answer: 'no' }],
    ['answerRelevance', scorers.answerRelevance({ model: judgeModel() }), { reasoning: `it says ${PII}`, score: 1 }],
    ['faithfulness', scorers.faithfulness({ model: judgeModel() }), { claims: [{ claim: PII, supported: false }] }],
    ['contextPrecision', scorers.contextPrecision({ model: judgeModel() }), { verdicts: [{ passage: 1, useful: false }] }],
    ['contextRecall', scorers.contextRecall({ model: judgeModel() }), { statements: [{ statement: PII, attributed: false }] }],
  ]

  it('with recordResponses false no reason and no reply error quotes the answer, the judge’s words or its claims', async () => {
    for (const [label, scorer, reply] of everyJudge()) {
      judgeSays(reply)
      const result = await run(scorer, { recorded: false, context: [`context about ${PII}`] })
      expect(result.pass, label).toBe(false)
      expect(result.reason, label).not.toMatch(/Jane|4111/)
      judgeSays({ nonsense: PII })
      const error = await run(scorer, { recorded: false, context: ['c'] }).catch((e: Error) => e)
      expect(error, label).toBeInstanceOf(JudgeReplyError)
      expect((error as Error).message, label).not.toMatch(/Jane|4111/)
    }
  })

  // A prompt's text is pinned to its version: edit the text and this fails until the version moves
  // (the version is in the scorer's config, so a new version is a new config_hash).
  it('each judge prompt is the text its version names, and the version is in config_hash', async () => {
    const pinned: Record<string, string> = {}
    const seen: Record<string, string> = {}
    for (const [, scorer, reply] of everyJudge()) {
      judgeSays(reply)
      await run(scorer, { context: ['passage'] })
      const { messages } = server.requests.at(-1)!.body
      const version = String(scorer.config!.template === 'digline-judge-v1' ? (scorer.config!.rubric as string).match(/\((digline-[\w-]+)\)/)![1] : scorer.config!.template)
      seen[version] = sha256Hex(JSON.stringify(messages)).slice(0, 16)
    }
    Object.assign(pinned, {
      'digline-factuality-v1': '323ba31f08f45f32',
      'digline-closed-qa-v1': '3ee5f3dd3535a490',
      'digline-answer-relevance-v1': '5fae2874c089b2ad',
      'digline-faithfulness-v1': '6c02597f0aea7216',
      'digline-context-precision-v1': 'fbcc66c68a0d2cca',
      'digline-context-recall-v1': '8a53303a3c92b849',
    })
    expect(seen, 'a judge prompt changed: bump its version (…-v2) and pin the new text here').toEqual(pinned)
    const f = scorers.factuality({ model: judgeModel() })
    expect(hashWith(f)).not.toBe(hashWith({ ...f, config: { ...f.config, template: 'digline-factuality-v2' } }))
  })
})

describe('in a suite', () => {
  it("a case's context reaches the RAG judge; each judge's score, reason and usage land in the sample", async () => {
    server.script = (r) =>
      r.body.response_format === undefined
        ? { reply: 'unused' }
        : r.body.messages![0]!.content.includes('faithful')
          ? { reply: JSON.stringify({ claims: [{ claim: 'a', supported: true }] }), model: 'judge-x' }
          : { reply: JSON.stringify({ reasoning: 'fine', choice: 'same' }), model: 'judge-x' }
    const start = server.requests.length
    const suite = resolveSuite({
      name: 'rag',
      cases: [{ id: 'q1', input: 'Who paid?', expected: 'Jane', context: ['Jane paid.'] }],
      target: () => 'Jane paid',
      samples: 2,
      scorers: [scorers.faithfulness({ model: judgeModel() }), scorers.factuality({ model: judgeModel() })],
    })
    const { results, observed } = await execute({ suite })
    expect(server.requests.length - start).toBe(4)
    expect(server.requests.slice(start).filter((r) => r.user.includes('Context:\n[1] Jane paid.'))).toHaveLength(2)
    expect(results[0]!.verdict).toBe('pass')
    expect(results[0]!.samples[1]!.scorers).toEqual([
      { name: 'faithfulness', pass: true, score: 1, reason: '1 of 1 claims supported by the context (1.00)', usage: { input_tokens: 10, output_tokens: 2 } },
      {
        name: 'factuality',
        pass: true,
        score: 1,
        reason: "same (1.00): the judge's reasoning is not kept, as answers are not recorded",
        usage: { input_tokens: 10, output_tokens: 2 },
      },
    ])
    expect(observed.judge_models).toEqual({ faithfulness: 'judge-x', factuality: 'judge-x' })
  })

  it('a dataset row carries its context to the case; a context that is not passages is refused with the row', async () => {
    const root = mkdtempSync(join(tmpdir(), 'digline-rag-'))
    writeFileSync(
      join(root, 'rag.jsonl'),
      `${JSON.stringify({ id: 'q1', input: 'Who paid?', context: ['Jane paid.', 'By card.'] })}\n${JSON.stringify({ id: 'q2', input: 'When?', context: 'Monday.' })}\n`,
    )
    const { cases } = await readDataset('rag.jsonl', { root })
    expect(cases.map((c) => c.context)).toEqual([['Jane paid.', 'By card.'], 'Monday.'])
    writeFileSync(join(root, 'bad.jsonl'), `${JSON.stringify({ id: 'q3', input: 'x', context: [1, 2] })}\n`)
    await expect(readDataset('bad.jsonl', { root })).rejects.toThrow(/context.*must be a string or a list of strings/)
  })
})
