// A suite named pick.small and variant small of suite pick would be filed under one name (ADR 0416):
// refused by name (VariantNameCollisionError, 64) in one launch that declares both, in a launch of one
// of them whose suite's baseline is the other, and when comparing or promoting one against the other.
import { renameSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { callLines } from '../helpers/kill.js'
import { makeProject } from '../helpers/project.js'

const variants = `import { evalSuite, scorers } from 'digline'

evalSuite({
  name: 'pick',
  cases: Array.from({ length: 3 }, (_, i) => ({ id: 'c' + i, input: i, expected: i })),
  variants: { small: async (i) => i, large: async (i) => i },
  scorers: [scorers.exact()],
})
`

const plain = `import { evalSuite, scorers } from 'digline'
import { appendFileSync } from 'node:fs'

evalSuite({
  name: 'pick.small',
  cases: Array.from({ length: 3 }, (_, i) => ({ id: 'c' + i, input: i, expected: i })),
  target: async (i) => (appendFileSync('plain-calls.log', i + '\\n'), i),
  scorers: [scorers.exact()],
})
`

const key = (file: string) => file.replace(/\.json$/, '')

test('pick.small as a suite of its own and as variant small of pick: refused in one launch, against a baseline, in compare and in promote', { timeout: 400_000 }, async () => {
  const project = makeProject({ 'evals/pick.eval.ts': variants, 'evals/plain.eval.ts': plain })
  const both = await project.vitest([], { DIGLINE_CREATED_AT: '2026-12-03T09:00:00.000001Z' })
  const out = both.stdout + both.stderr
  expect(both.code, out).toBe(64)
  expect(out).toContain('VariantNameCollisionError: suite pick.small (tenant acme) was refused')
  expect(out).toMatch(/evals\/(pick|plain)\.eval\.ts declares (variant small of suite pick|a suite of its own)/)
  expect(out).toContain('Rename the suite pick.small in evals/plain.eval.ts (say to pick-small), then run again')

  // each launched alone (the refused launch may have filed the one that claimed the name first): a plain run of pick.small, then the variants
  const first = await project.vitest(['evals/plain.eval.ts'], { DIGLINE_CREATED_AT: '2026-12-03T10:00:00.000001Z' })
  expect(first.code, first.stdout + first.stderr).toBe(0)
  const plainKey = key(project.runFiles('acme', 'pick.small').find((f) => f.startsWith('20261203T100000'))!)
  const second = await project.vitest(['evals/pick.eval.ts'], { DIGLINE_CREATED_AT: '2026-12-03T11:00:00.000001Z' })
  expect(second.code, second.stdout + second.stderr).toBe(0)
  const variantKey = key(project.runFiles('acme', 'pick.small').find((f) => f.startsWith('20261203T110000'))!)

  const compared = await project.digline(['compare', '--suite', 'pick.small', '--run', variantKey, '--against', plainKey])
  expect(compared.code, compared.stdout + compared.stderr).toBe(64)
  expect(compared.stderr).toContain(
    `VariantNameCollisionError: refused to compare run ${variantKey} of suite pick.small against run ${plainKey}: run ${variantKey} was filed as variant small of suite pick, and run ${plainKey} as a suite of its own`,
  )

  // promote reads the suite as declared now: with the plain file aside, pick.small is the variant alone
  renameSync(join(project.dir, 'evals/plain.eval.ts'), join(project.dir, 'plain.eval.ts.aside'))
  const promoted = await project.digline(['promote', '--suite', 'pick.small', '--run', variantKey])
  expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0)
  renameSync(join(project.dir, 'plain.eval.ts.aside'), join(project.dir, 'evals/plain.eval.ts'))
  const over = await project.digline(['promote', '--suite', 'pick.small', '--run', plainKey, '--replacing', variantKey])
  expect(over.code, over.stdout + over.stderr).toBe(64)
  expect(over.stderr).toContain(
    `VariantNameCollisionError: refused to promote run ${plainKey} of suite pick.small: the run was filed as a suite of its own, and the suite's baseline (run ${variantKey}) as variant small of suite pick`,
  )

  const calls = callLines(project, 'plain-calls.log').length
  const again = await project.vitest(['evals/plain.eval.ts'], { DIGLINE_CREATED_AT: '2026-12-03T12:00:00.000001Z' })
  expect(again.code, again.stdout + again.stderr).toBe(64)
  expect(again.stdout + again.stderr).toContain(
    `VariantNameCollisionError: refused a fresh run of suite pick.small: this launch declares it as a suite of its own, and its baseline (run ${variantKey}) was filed as variant small of suite pick`,
  )
  expect(callLines(project, 'plain-calls.log')).toHaveLength(calls)
  expect(project.runFiles('acme', 'pick.small').filter((f) => f.startsWith('20261203T12'))).toEqual([])
})
