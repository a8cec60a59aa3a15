// The key lists the hand-written checks and encoders use are the zod schemas' shapes, written out so
// that a check needs no zod (ADR 0430). A field added to a schema fails here until its list has it.
import { expect, test } from 'vitest'
import { STEP_AND_TURN_KEYS } from '../../../src/document/answer-shape.js'
import { baselineDocumentSchema } from '../../../src/document/baseline.js'
import * as keys from '../../../src/document/fast-shape.js'
import * as schema from '../../../src/document/schema.js'
import { CAUSES, journalHeaderSchema } from '../../../src/store/journal-format.js'
import { HEADER_FIELDS, LEASE_FIELDS } from '../../../src/store/journal-header-shape.js'

const shape = (s: { shape: object }) => Object.keys(s.shape)

test('every written-out key list is its schema shape, in order', () => {
  const rules = schema.rulesSchema.shape
  const header = schema.runHeaderSchema.shape
  expect(keys.CASE_KEYS).toEqual(shape(schema.caseResultSchema))
  expect(keys.SAMPLE_KEYS).toEqual(shape(schema.sampleResultSchema))
  expect(keys.SCORER_KEYS).toEqual(shape(schema.scorerScoreSchema))
  expect(keys.ERROR_KEYS).toEqual(shape(schema.caseResultSchema.shape.error.unwrap()))
  expect(keys.AGGREGATES_KEYS).toEqual(shape(schema.aggregatesSchema))
  expect(keys.INTERVAL_KEYS).toEqual(shape(schema.intervalSchema))
  expect(keys.COST_KEYS).toEqual(shape(schema.costSchema))
  expect(keys.RULES_KEYS).toEqual(shape(schema.rulesSchema))
  expect(keys.THRESHOLDS_KEYS).toEqual(shape(rules.thresholds))
  expect(keys.TOLERANCES_KEYS).toEqual(shape(rules.tolerances))
  expect(keys.CALIBRATION_KEYS).toEqual(shape(rules.calibration.unwrap()))
  expect(keys.JUDGE_CONFIG_KEYS).toEqual(shape(schema.judgeConfigSchema))
  expect(keys.JUDGE_SCORER_KEYS).toEqual(shape(schema.judgeConfigSchema.shape.scorers.element))
  expect(keys.OBSERVED_KEYS).toEqual(shape(schema.observedSchema))
  expect(keys.SLICE_KEYS).toEqual(shape(header.slice.unwrap()))
  expect(keys.VARIANT_KEYS).toEqual(shape(header.variant.unwrap()))
  expect(keys.DOCUMENT_KEYS).toEqual(shape(schema.runDocumentSchema))
  expect(keys.BASELINE_KEYS).toEqual(shape(baselineDocumentSchema))
  expect(schema.HEADER_KEYS).toEqual(shape(schema.runHeaderSchema))
  const journalHeader = journalHeaderSchema.shape
  expect(HEADER_FIELDS).toEqual(shape(journalHeaderSchema))
  expect(LEASE_FIELDS).toEqual(shape(journalHeader.lease))
  expect(keys.SLICE_KEYS).toEqual(shape(journalHeader.slice.unwrap()))
  expect(keys.VARIANT_KEYS).toEqual(shape(journalHeader.variant.unwrap()))
  expect([...CAUSES]).toEqual(schema.errorCauseSchema.options)
})

test("an answer's steps and turns are checked against their schemas' shapes", () => {
  const sample = schema.sampleResultSchema.shape
  type Element<T> = { element: T }
  const steps = sample.steps.unwrap() as unknown as Element<{ options: [{ shape: object }, { shape: object }] }>
  const turns = sample.turns.unwrap() as unknown as Element<{ shape: object }>
  const [model, tool] = steps.element.options
  expect(STEP_AND_TURN_KEYS).toEqual({ model: shape(model), tool: shape(tool), turn: shape(turns.element) })
})
