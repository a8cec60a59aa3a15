// SPEC §7, §15: the comparison says in words (a warning line, no exit change) what changed from the
// baseline: the keys of the declared target config, the observed model, the files recorded by hash.
import { expect, test } from 'vitest'
import { baselineOf } from '../../../src/document/baseline.js'
import { compareRuns } from '../../../src/host/judge/compare.js'
import { keyOf, makeRun } from '../../helpers/make-run.js'

test('a changed target config or observed model is a warning, not a regression', () => {
  const base = makeRun({ createdAt: '2026-11-29T10:00:00.000001Z' })
  const baseline = baselineOf(base, keyOf(base), '2026-11-29T12:00:00.000001Z')
  const same = makeRun({ createdAt: '2026-11-30T10:00:00.000001Z' })
  expect(compareRuns(baseline, same).warnings.filter((w) => /target/.test(w))).toEqual([])
  const moved = { ...same, target_config: { ...same.target_config, model: 'other-v2' }, observed: { ...same.observed, target_model: 'other-v2-2027' } }
  const c = compareRuns(baseline, moved)
  expect(c.warnings).toContain(`the target's declared config: changed model ("geo-v1" → "other-v2")`)
  expect(c.warnings).toContain('the target reported another model: geo-v1-2026-01 then, other-v2-2027 now')
  expect(c.regressed).toBe(false)
})

test('artifacts and any other header field of files by hash (dataset files) are diffed by name; long or nested values are named, not quoted', () => {
  const hex = (ch: string) => ch.repeat(64)
  const base = { ...makeRun({ createdAt: '2026-11-29T10:00:00.000001Z' }), artifacts: { 'a.md': hex('a'), 'b.md': hex('b') } }
  const baseline = { ...baselineOf(base, keyOf(base), '2026-11-29T12:00:00.000001Z'), datasets: { 'data/t.jsonl': hex('c') } }
  const run = {
    ...makeRun({ createdAt: '2026-11-30T10:00:00.000001Z' }),
    target_config: { model: 'geo-v1', temperature: 0, system: 'x'.repeat(80), tools: [{ name: 'search' }] },
    artifacts: { 'a.md': hex('d'), 'c.md': hex('e') },
    datasets: { 'data/t.jsonl': hex('f') },
  }
  const c = compareRuns(baseline, run)
  expect(c.changes.target_config).toEqual({ added: ['system', 'tools'], removed: [], changed: [] })
  expect(c.changes.files).toEqual({ artifacts: { added: ['c.md'], removed: ['b.md'], changed: ['a.md'] }, datasets: { added: [], removed: [], changed: ['data/t.jsonl'] } })
  expect(c.warnings).toContain("the target's declared config: added system, tools")
  expect(c.warnings).toContain('the files recorded in artifacts: changed a.md; added c.md; removed b.md')
  expect(c.warnings).toContain('the files recorded in datasets: changed data/t.jsonl')
  expect(c.warnings.join('\n')).not.toContain('xxxxxxxx')
  expect(c.regressed).toBe(false)
})
