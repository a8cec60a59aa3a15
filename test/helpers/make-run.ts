// Schema-valid run documents for store tests, built by hand so the store is tested apart from the
// driver. Every result passes its one exact scorer unless its index says otherwise; without filler
// reasons a document is one the driver could have written (import checks that, ADR 0163).
import { runDocumentSchema, SCHEMA_VERSION, type CaseResult, type RunDocument } from '../../src/document/schema.js'
import { baselineOf } from '../../src/document/baseline.js'
import type { Store } from '../../src/store/contract.js'
import { keyFor } from '../../src/suite/keys.js'
import { wilson } from '../../src/stats/wilson.js'

export interface MakeRunOptions {
  tenant?: string
  suite?: string
  createdAt?: string
  configHash?: string
  /** Number of case results. */
  results?: number
  /** Characters of filler in each result's reason, to make large documents. */
  reasonLength?: number
  metadata?: Record<string, unknown>
}

export const DEFAULT_CREATED_AT = '2026-11-29T22:39:56.123456Z'
export const DEFAULT_CONFIG_HASH = '3f9a0c1b2d4e'

function caseResult(index: number, reasonLength: number): CaseResult {
  const verdict = index % 7 === 3 ? 'fail' : 'pass'
  const pass = verdict === 'pass'
  return {
    case_id: `case-${String(index).padStart(5, '0')}`,
    verdict,
    score: pass ? 1 : 0,
    passed_samples: pass ? 1 : 0,
    reason: reasonLength > 0 ? 'r'.repeat(reasonLength) : pass ? null : '0/1 samples passed; sample 0, exact: did not pass',
    error: null,
    samples: [{ pass, score: pass ? 1 : 0, scorers: [{ name: 'exact', pass, score: pass ? 1 : 0, reason: null }] }],
  }
}

export function makeRun(options: MakeRunOptions = {}): RunDocument {
  const count = options.results ?? 3
  const results = Array.from({ length: count }, (_, i) => caseResult(i, options.reasonLength ?? 0))
  const passed = results.filter((r) => r.verdict === 'pass').length
  const doc: RunDocument = {
    schema_version: SCHEMA_VERSION,
    digline_version: '0.1.0',
    tenant: options.tenant ?? 'acme',
    environment: 'local',
    suite: options.suite ?? 'capitals',
    created_at: options.createdAt ?? DEFAULT_CREATED_AT,
    config_hash: options.configHash ?? DEFAULT_CONFIG_HASH,
    record_responses: false,
    target_config: { model: 'geo-v1', temperature: 0 },
    judge_config: { scorers: [{ name: 'exact', config: {}, pass_at: 1 }] },
    artifacts: {},
    metadata: options.metadata ?? {},
    rules: { samples: 1, min_agreement: 1, thresholds: { pass_rate: 0.8 }, tolerances: { pass_rate: 0.05 } },
    observed: { target_model: 'geo-v1-2026-01', judge_models: {} },
    aggregates: {
      cases: count,
      passed,
      failed: count - passed,
      errored: 0,
      pass_rate: count === 0 ? null : passed / count,
      pass_rate_ci95: wilson(passed, count) ?? null,
      mean_score: count === 0 ? null : passed / count,
      samples_per_case: 1,
    },
    results,
  }
  return runDocumentSchema.parse(doc)
}

export function keyOf(doc: RunDocument): string {
  return keyFor(doc.created_at, doc.config_hash)
}

/** created_at values one second apart, in order, for listing tests. */
export function createdAtSeconds(count: number, base = '2026-11-29T22:39'): string[] {
  return Array.from({ length: count }, (_, i) => `${base}:${String(10 + i).padStart(2, '0')}.000001Z`)
}

/** Makes `doc` its suite's first baseline straight through the store (no promotion checks): the request every promote builds. */
export async function promoteFirst(store: Pick<Store, 'promote'>, doc: RunDocument, promotedAt: string): Promise<void> {
  const key = keyOf(doc)
  const a = doc.aggregates
  await store.promote({
    tenant: doc.tenant,
    suite: doc.suite,
    expected: null,
    baseline: baselineOf(doc, key, promotedAt),
    entry: {
      promoted_at: promotedAt,
      suite: doc.suite,
      key,
      replaced: null,
      config_hash: doc.config_hash,
      cases: a.cases,
      passed: a.passed,
      failed: a.failed,
      pass_rate: a.pass_rate,
    },
  })
}
