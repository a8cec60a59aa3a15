// Variants (SPEC §15, ADR 0301) by seeded simulation through compareVariants: three variants asked the
// same cases, each case with its own chance of passing. `same` and `twin` share every case's chance (an
// A/A pair); `better` passes a case with `lift` more of the chance the other two lack. Per launch, the
// verdict of every pair; counted: the A/A pair called anything but "no difference", a true pair called
// the right way, and the wrong way. With `lift` 0 all three are equal, and any claim is a false one.
import { caseProbabilities, drawRun } from './regression-simulation.js'

export function simulateVariants(digline, { cases, launches, lift, seed }) {
  const random = digline.seededRandom(seed)
  let aaClaimed = 0
  let anyClaimed = 0
  let right = 0
  let wrong = 0
  for (let l = 0; l < launches; l++) {
    const base = caseProbabilities(cases, random)
    const better = base.map((p) => p + lift * (1 - p))
    const runs = [
      ['same', base],
      ['twin', base],
      ['better', better],
    ].map(([variant, chances]) => ({ variant, suite: `sim.${variant}`, key: 'simulated', document: drawRun(digline, chances, random, 0, '2026-01-01T00:00:00.000000Z') }))
    const { pairs } = digline.compareVariants('sim', runs)
    const pair = (a, b) => pairs.find((p) => p.a === a && p.b === b)
    if (pair('same', 'twin').verdict !== 'no_difference') aaClaimed++
    if (pairs.some((p) => p.verdict !== 'no_difference')) anyClaimed++
    for (const p of [pair('same', 'better'), pair('twin', 'better')]) {
      if (p.verdict === 'b_better') right++
      else if (p.verdict === 'a_better') wrong++
    }
  }
  return {
    cases,
    launches,
    lift,
    seed,
    aaNoDifferenceRate: 1 - aaClaimed / launches,
    anyClaimRate: anyClaimed / launches,
    rightRate: right / (2 * launches),
    wrongRate: wrong / (2 * launches),
  }
}
