// SPEC §7: the comparison says (a warning line, no exit change) when the run's declared target
// config or observed model differs from the baseline's.
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
  expect(c.warnings.some((w) => w.includes("the target's declared config differs") && w.includes('other-v2'))).toBe(true)
  expect(c.warnings.some((w) => w.includes('reported another model') && w.includes('other-v2-2027'))).toBe(true)
  expect(c.regressed).toBe(false)
})
