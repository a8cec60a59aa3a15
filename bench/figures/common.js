// What the in-process figures share: importing digline from the installed copy, and documents
// shaped like the ones digline writes.
import { pathToFileURL } from 'node:url'
import { join } from 'node:path'

export function importDist(pkg, rel) {
  return import(pathToFileURL(join(pkg, 'dist', rel)).href)
}

export const CONFIG_HASH = '0123456789ab'

/** created_at values one second apart from 2026-01-01, with microseconds. */
export function createdAt(i, base = Date.UTC(2026, 0, 1)) {
  return `${new Date(base + i * 1000).toISOString().slice(0, -1)}${String(i % 1000).padStart(3, '0')}Z`
}

/** A judged case as the driver builds it: `samples` samples of one exact scorer; every 7th fails. */
export function caseResult(index, { samples = 1, output, flip = false } = {}) {
  let pass = index % 7 !== 3
  if (flip) pass = !pass
  const sample = () => {
    const s = { pass, score: pass ? 1 : 0, scorers: [{ name: 'exact', pass, score: pass ? 1 : 0, reason: pass ? null : `expected "ok-${index}", got "no"` }] }
    if (output !== undefined) s.output = output
    return s
  }
  return {
    case_id: `c${String(index).padStart(6, '0')}`,
    verdict: pass ? 'pass' : 'fail',
    score: pass ? 1 : 0,
    passed_samples: pass ? samples : 0,
    reason: pass ? null : `0/${samples} samples passed; sample 1, exact: expected "ok-${index}", got "no"`,
    error: null,
    samples: Array.from({ length: samples }, sample),
  }
}

export function runDocument({ tenant, suite, index, results, aggregate, recordResponses = false, rejudgedFrom, metadata = {} }) {
  const rules = { samples: 1, min_agreement: 1, thresholds: {}, tolerances: { pass_rate: 0.05 } }
  return {
    schema_version: 1,
    digline_version: '0.1.0',
    tenant,
    environment: 'local',
    suite,
    created_at: createdAt(index),
    config_hash: CONFIG_HASH,
    ...(rejudgedFrom === undefined ? {} : { rejudged_from: rejudgedFrom.key, rejudged_from_suite: rejudgedFrom.suite }),
    git_commit: 'a'.repeat(40),
    record_responses: recordResponses,
    target_config: { model: 'geo-v1', temperature: 0 },
    judge_config: { scorers: [{ name: 'exact', config: { trim: false, case_insensitive: false }, pass_at: 0.5 }] },
    artifacts: {},
    metadata,
    rules,
    observed: { target_model: 'geo-v1-2026-01', judge_models: {} },
    aggregates: aggregate(results, rules),
    results,
  }
}

export function gc() {
  if (typeof globalThis.gc === 'function') globalThis.gc()
}

/** The child's answer: one JSON line on stdout. */
export function reply(value) {
  process.stdout.write(`\n${JSON.stringify(value)}\n`)
}
