// What changed between two runs of a suite, in words a reviewer reads before the numbers (SPEC §15):
// the keys of the declared target config, the model the target reported, and every file the run
// recorded by hash — artifacts, and any other header field of path → sha256 (dataset files).
import type { RunHeader } from '../../document/schema.js'
import { canonicalJson, sha256Hex } from '../../suite/hashing.js'

/** Paths (dotted keys) or file names, by how they changed from the earlier run to the later one. */
export interface KeyChanges {
  added: string[]
  removed: string[]
  changed: string[]
}

export interface RunChanges {
  /** Leaf keys of the declared target config, dotted (`options.temperature`). */
  target_config: KeyChanges
  /** The model the target reported, when it moved. */
  target_model: { before: string | null; after: string | null } | null
  /** Judge models (by scorer) whose reported model moved. */
  judge_models: string[]
  /** Per header field that records files by hash (`artifacts`, dataset files), the files that moved; fields with no change are left out. */
  files: Record<string, KeyChanges>
  /** The same, one sentence each; empty when the two runs measured the same declared system. */
  words: string[]
}

/** 12 hex of sha256 over the canonical JSON of the declared target config: `digline list` shows it. */
export function targetConfigDigest(targetConfig: Record<string, unknown>): string {
  return sha256Hex(canonicalJson(targetConfig)).slice(0, 12)
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

function leaves(value: unknown, prefix: string, out: Map<string, string>): Map<string, string> {
  if (isRecord(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) leaves(v, prefix === '' ? k : `${prefix}.${k}`, out)
  } else if (prefix !== '') out.set(prefix, canonicalJson(value) ?? 'undefined')
  return out
}

function diffMaps(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): KeyChanges {
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  return {
    added: [...after.keys()].filter((k) => !before.has(k)).sort(order),
    removed: [...before.keys()].filter((k) => !after.has(k)).sort(order),
    changed: [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k)).sort(order),
  }
}

const empty = (c: KeyChanges): boolean => c.added.length + c.removed.length + c.changed.length === 0

/** A header field that records files by hash: an object of path → hex digest, or a list of `{ path | file, sha256 }`. */
function fileHashes(value: unknown): Map<string, string> | undefined {
  if (isRecord(value)) {
    const entries = Object.entries(value)
    if (entries.length === 0 || !entries.every(([, v]) => typeof v === 'string' && /^[0-9a-f]{12,}$/i.test(v))) return undefined
    return new Map(entries as [string, string][])
  }
  if (Array.isArray(value) && value.length > 0) {
    const out = new Map<string, string>()
    for (const item of value) {
      if (!isRecord(item) || typeof item.sha256 !== 'string') return undefined
      const name = typeof item.path === 'string' ? item.path : typeof item.file === 'string' ? item.file : undefined
      if (name === undefined) return undefined
      out.set(name, item.sha256)
    }
    return out
  }
  return undefined
}

/** Header fields that are never file records, whatever their shape. */
const NOT_FILES = new Set(['target_config', 'judge_config', 'metadata', 'rules', 'observed', 'aggregates', 'results'])

const SHOWN_VALUE = 40

/** A scalar's value short enough to print; longer values and objects are named by key only. */
function shown(canonical: string | undefined): string | undefined {
  return canonical !== undefined && canonical.length <= SHOWN_VALUE && !canonical.startsWith('{') && !canonical.startsWith('[') ? canonical : undefined
}

function list(items: readonly string[], max = 8): string {
  return items.length > max ? `${items.slice(0, max).join(', ')} … and ${items.length - max} more` : items.join(', ')
}

function keyWords(what: string, c: KeyChanges, values?: { before: Map<string, string>; after: Map<string, string> }): string | undefined {
  if (empty(c)) return undefined
  const parts: string[] = []
  if (c.changed.length > 0) {
    const named = c.changed.map((k) => {
      const b = shown(values?.before.get(k))
      const a = shown(values?.after.get(k))
      return b !== undefined && a !== undefined ? `${k} (${b} → ${a})` : k
    })
    parts.push(`changed ${list(named)}`)
  }
  if (c.added.length > 0) parts.push(`added ${list(c.added)}`)
  if (c.removed.length > 0) parts.push(`removed ${list(c.removed)}`)
  return `${what}: ${parts.join('; ')}`
}

type Header = Pick<RunHeader, 'target_config' | 'observed'> & Record<string, unknown>

/**
 * What changed from `before` (the baseline, or the run compared against) to `after`. `thenNow`
 * names the two sides in the words ("then"/"now", or two keys).
 */
export function runChanges(before: Header, after: Header, thenNow: { then: string; now: string } = { then: 'then', now: 'now' }): RunChanges {
  const beforeConfig = leaves(before.target_config, '', new Map())
  const afterConfig = leaves(after.target_config, '', new Map())
  const target_config = diffMaps(beforeConfig, afterConfig)
  const target_model = before.observed.target_model === after.observed.target_model ? null : { before: before.observed.target_model, after: after.observed.target_model }
  const judges = new Set([...Object.keys(before.observed.judge_models), ...Object.keys(after.observed.judge_models)])
  const judge_models = [...judges].filter((j) => before.observed.judge_models[j] !== after.observed.judge_models[j]).sort()
  const files: Record<string, KeyChanges> = {}
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (NOT_FILES.has(field)) continue
    const b = fileHashes(before[field])
    const a = fileHashes(after[field])
    if (b === undefined && a === undefined) continue
    const c = diffMaps(b ?? new Map(), a ?? new Map())
    if (!empty(c)) files[field] = c
  }
  const words: string[] = []
  const config = keyWords("the target's declared config", target_config, { before: beforeConfig, after: afterConfig })
  if (config !== undefined) words.push(config)
  if (target_model !== null) words.push(`the target reported another model: ${target_model.before ?? 'none'} ${thenNow.then}, ${target_model.after ?? 'none'} ${thenNow.now}`)
  if (judge_models.length > 0)
    words.push(`the judge model moved for ${list(judge_models.map((j) => `${j} (${before.observed.judge_models[j] ?? 'none'} → ${after.observed.judge_models[j] ?? 'none'})`))}`)
  for (const [field, c] of Object.entries(files)) words.push(keyWords(`the files recorded in ${field.replaceAll('_', ' ')}`, c)!)
  return { target_config, target_model, judge_models, files, words }
}
