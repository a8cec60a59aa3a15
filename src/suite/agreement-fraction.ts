// minAgreement as a person writes it (ADR 0240): 0.67 of 3 samples reads as 2 of 3, yet
// ceil(0.67 × 3) asks for 3 of 3. Such a fraction is refused with the exact fractions to write.

const SLACK = 1e-9

/** How `count` of `samples` is written exactly (2/3, 1, 0). */
export const exactFraction = (count: number, samples: number): string => (count === samples ? '1' : count === 0 ? '0' : `${count}/${samples}`)

/**
 * Why `minAgreement` with `samples` is ambiguous, or undefined when it is not: minAgreement × samples
 * is not a whole count, and minAgreement lies less than half a point (0.005) above a count's exact
 * share k/samples, so it reads as k/samples rounded to two places while asking for k + 1.
 */
export function agreementAmbiguity(minAgreement: number, samples: number): string | undefined {
  const product = minAgreement * samples
  const below = Math.floor(product + SLACK)
  if (product - below <= SLACK || minAgreement - below / samples >= 0.005) return undefined
  const asked = below + 1
  return (
    `${minAgreement} with ${samples} samples asks for ${asked} of ${samples} passing samples (${minAgreement} × ${samples} = ${Number(product.toFixed(6))}, rounded up), ` +
    `though ${minAgreement} reads as ${below}/${samples} rounded: write minAgreement: ${exactFraction(below, samples)} for ${below} of ${samples}, or ${exactFraction(asked, samples)} for ${asked} of ${samples}`
  )
}
