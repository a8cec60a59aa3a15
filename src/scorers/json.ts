import type { z } from 'zod'
import { zodNow } from '../suite/zod-on-demand.js'
import { InvalidSuiteError } from '../suite/errors.js'
import type { JsonObject, ScorerObject } from '../suite/types.js'
import { preview } from './reason-text.js'
import { describeZodError } from '../suite/issue-sentence.js'
import { withPath, type WholeAnswerArgs } from './field-path.js'

export interface JsonOptions {
  /** The scorer's name in results (default "json"). */
  name?: string
  /** Score one field of a structured answer (a JSON string or an object), e.g. "total" or "items[0].price"; in the config. */
  path?: string
}

/**
 * The output (a JSON string, or an already parsed value) is valid against a zod schema. The schema
 * enters config_hash as JSON Schema; refinements and transforms have no JSON Schema form, so a change
 * to one of them alone does not move the hash.
 */
export function json(schema: z.ZodType, options: JsonOptions = {}): ScorerObject {
  if (schema === null || typeof schema !== 'object' || typeof (schema as { safeParse?: unknown }).safeParse !== 'function') {
    throw new InvalidSuiteError('scorers.json() needs a zod schema', 'Pass a zod v4 schema, e.g. scorers.json(z.object({ … })).', ['scorers'])
  }
  const jsonSchema = zodNow().toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject
  const scorer: ScorerObject = {
    name: options.name ?? 'json',
    config: { schema: jsonSchema },
    score(args) {
      const { output, recorded } = args
      let value: unknown = output
      // A field taken by `path` was read out of the parsed answer already: a string there is a string.
      if (typeof output === 'string' && (args as WholeAnswerArgs).wholeOutput === undefined) {
        try {
          value = JSON.parse(output)
        } catch (error) {
          // The parser's message quotes a piece of the text, so it is kept only with the answer itself.
          if (recorded === true) return { pass: false, score: 0, reason: `output is not JSON (${(error as Error).message}): ${preview(output)}` }
          return { pass: false, score: 0, reason: 'output is a string that is not JSON (not quoted, as answers are not recorded)' }
        }
      }
      const parsed = schema.safeParse(value)
      if (parsed.success) return { pass: true, score: 1 }
      return { pass: false, score: 0, reason: describeZodError(parsed.error, value, 'output', schema, recorded === true).sentence }
    },
  }
  return withPath(scorer, options.path, 'scorers.json()')
}
