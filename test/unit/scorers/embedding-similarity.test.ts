// Embedding similarity through the real `openai` SDK and the AI SDK's embedMany against a loopback
// /embeddings server: the cosine, one counted call per sample, usage and cost as a judge's.
import { createOpenAI } from '@ai-sdk/openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aggregate } from '../../../src/driver/aggregate.js'
import { pricingFor } from '../../../src/driver/cost.js'
import { execute } from '../../../src/driver/execute.js'
import { aiSdkEmbeddings, ModelCallError, openaiEmbeddings } from '../../../src/models/index.js'
import { cosine, embeddingSimilarity } from '../../../src/scorers/embedding-similarity.js'
import { judgeConfigOf } from '../../../src/suite/hashing.js'
import { resolveSuite } from '../../../src/suite/resolve-suite.js'
import type { ScoreResult } from '../../../src/suite/types.js'
import { startEmbeddingServer, type EmbeddingServer } from './embedding-server.js'
import { hashWith } from './helpers.js'

// Texts mapped to fixed vectors: "Paris" and "paris, France" are 0.6 apart in cosine terms.
const VECTORS: Record<string, number[]> = { Paris: [1, 0, 0], 'Paris.': [0.8, 0.6, 0], 'paris, France': [0.6, 0.8, 0], Lima: [0, 0, 1], Quito: [0, 0, -1] }
let server: EmbeddingServer
beforeAll(async () => {
  server = await startEmbeddingServer((t) => VECTORS[t] ?? [0, 1, 0])
})
afterAll(() => server.close())

const KEY = 'sk-embed-DO-NOT-LEAK-99aa77bb'
const viaOpenai = () => openaiEmbeddings({ model: 'embed-small', baseURL: server.url, apiKey: KEY, retry: { attempts: 2, baseMs: 1, maxMs: 2 } })
const viaAiSdk = () => aiSdkEmbeddings(createOpenAI({ baseURL: server.url, apiKey: KEY }).embedding('embed-small'), { retry: { attempts: 2, baseMs: 1, maxMs: 2 } })
const score = async (scorer: ReturnType<typeof embeddingSimilarity>, output: unknown, expected: unknown) =>
  (await scorer.score({ input: 'q', output, expected, caseId: 'c', recorded: false })) as ScoreResult

describe('embeddingSimilarity', () => {
  it('cosine of two vectors', () => {
    expect(cosine([1, 0], [0.6, 0.8])).toBeCloseTo(0.6, 12)
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1, 12)
    expect(cosine([0, 0], [1, 1])).toBe(0)
  })

  it.each([
    ['the openai SDK', viaOpenai],
    ['the AI SDK', viaAiSdk],
  ])('through %s: one call embeds both texts; the score is the cosine, its usage input tokens, its model the reported id', async (_label, model) => {
    const start = server.requests.length
    const scorer = embeddingSimilarity({ model: model() })
    expect(await score(scorer, 'Paris.', 'Paris')).toEqual({
      pass: true,
      score: 0.8,
      reason: 'cosine similarity 0.80',
      model: 'embed-small',
      usage: { input_tokens: 2, output_tokens: 0 },
    })
    expect(await score(scorer, 'paris, France', 'Paris')).toMatchObject({ pass: false, reason: 'cosine similarity 0.60, below pass_at 0.80' })
    expect(await score(scorer, 'Quito', 'Lima')).toMatchObject({ pass: false, score: 0 })
    expect(server.requests.slice(start).map((r) => r.input)).toEqual([
      ['Paris.', 'Paris'],
      ['paris, France', 'Paris'],
      ['Quito', 'Lima'],
    ])
    expect(server.requests.at(-1)!.model).toBe('embed-small')
  })

  it('the declared model and passAt are the config, so config_hash; the key never is', () => {
    const scorer = embeddingSimilarity({ model: viaOpenai(), passAt: 0.7 })
    expect(scorer.config).toEqual({ model: { provider: 'openai-compatible', model: 'embed-small', base_url: server.url }, pass_at: 0.7, measure: 'cosine' })
    expect(JSON.stringify(scorer.config)).not.toContain(KEY)
    expect(hashWith(scorer)).not.toBe(hashWith(embeddingSimilarity({ model: viaOpenai() })))
    expect(hashWith(scorer)).not.toBe(hashWith(embeddingSimilarity({ model: openaiEmbeddings({ model: 'embed-large', baseURL: server.url }), passAt: 0.7 })))
  })

  it('a failed call is retried to the ceiling and errors with the key redacted', async () => {
    server.script.status = 500
    const start = server.requests.length
    try {
      const error = await score(embeddingSimilarity({ model: viaOpenai() }), 'Paris', 'Paris').catch((e: Error) => e)
      expect(error).toBeInstanceOf(ModelCallError)
      expect((error as Error).message).not.toContain(KEY)
      expect(server.requests.length - start).toBe(2)
    } finally {
      delete server.script.status
    }
  })

  it("in a suite: the path's field is embedded, each sample's usage is judge usage, priced by the embedding model", async () => {
    const start = server.requests.length
    const suite = resolveSuite({
      name: 'similar',
      cases: [
        { id: 'fr', input: 'France', expected: 'Paris' },
        { id: 'pe', input: 'Peru', expected: 'Lima' },
      ],
      target: (input: string) => JSON.stringify({ city: input === 'France' ? 'Paris.' : 'Quito' }),
      samples: 2,
      scorers: [embeddingSimilarity({ model: viaOpenai(), path: 'city' })],
      prices: { 'embed-small': { input: 0.02 * 1000, output: 0 } },
    })
    const { results, observed } = await execute({ suite })
    expect(server.requests.length - start).toBe(4)
    expect(results.map((r) => [r.case_id, r.verdict, r.score])).toEqual([
      ['fr', 'pass', 0.8],
      ['pe', 'fail', 0],
    ])
    expect(results[1]!.samples[0]!.scorers[0]!.reason).toBe('at city: cosine similarity 0.00, below pass_at 0.80')
    const aggregates = aggregate(results, suite.rules, pricingFor(suite.prices!, observed, suite.targetConfig, judgeConfigOf(suite.scorers)))
    expect(aggregates.judge_usage).toEqual({ input_tokens: 8, output_tokens: 0 })
    expect(aggregates.cost).toMatchObject({ judge: (8 * 20) / 1e6, unpriced: [] })
  })
})
