import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { json } from '../../../src/scorers/json.js'
import { InvalidSuiteError } from '../../../src/suite/errors.js'
import { hashWith, score } from './helpers.js'

const ticket = z.object({
  priority: z.enum(['low', 'high']),
  tags: z.array(z.object({ name: z.string() })),
})

describe('scorers.json', () => {
  it('passes a JSON string or an object that matches the schema', async () => {
    expect(await score(json(ticket), '{"priority":"low","tags":[{"name":"billing"}]}')).toEqual({ pass: true, score: 1 })
    expect((await score(json(ticket), { priority: 'high', tags: [] })).pass).toBe(true)
  })

  it('fails with the path of the first zod issue', async () => {
    const result = await score(json(ticket), { priority: 'high', tags: [{ name: 7 }] })
    expect(result.pass).toBe(false)
    expect(result.score).toBe(0)
    expect(result.reason).toBe('name must be a string (got 7) at output.tags[0].name')
    expect((await score(json(z.string()), 5)).reason).toBe('output must be a string (got 5) at output')
  })

  it('fails output that is not JSON', async () => {
    const result = await score(json(ticket), 'Sure! Here is the JSON: {')
    expect(result.pass).toBe(false)
    expect(result.reason).toMatch(/^output is not JSON \(/)
  })

  it('refuses something that is not a zod schema', () => {
    expect(() => json({} as never)).toThrow(InvalidSuiteError)
  })

  it('carries the schema as JSON Schema in its config, so a changed schema moves the hash', () => {
    const config = json(ticket).config as { schema: { type: string; properties: Record<string, unknown> } }
    expect(config.schema.type).toBe('object')
    expect(Object.keys(config.schema.properties)).toEqual(['priority', 'tags'])
    expect(hashWith(json(ticket))).toBe(hashWith(json(z.object({ priority: z.enum(['low', 'high']), tags: z.array(z.object({ name: z.string() })) }))))
    expect(hashWith(json(ticket))).not.toBe(hashWith(json(ticket.extend({ owner: z.string() }))))
    expect(hashWith(json(ticket))).not.toBe(hashWith(json(z.object({ priority: z.enum(['low', 'mid', 'high']), tags: z.array(z.object({ name: z.string() })) }))))
  })

  it('accepts schemas with parts JSON Schema cannot express', async () => {
    const withDate = z.object({ at: z.coerce.date(), n: z.string().transform((s) => s.length) })
    expect((await score(json(withDate), { at: '2026-01-01', n: 'abc' })).pass).toBe(true)
  })
})
