// A score that sits within the suite's band of its scorer's pass_at (ADR 0262): one judge's noise
// could move it across the threshold, so its verdict is marked as resting on the edge.

const SLACK = 1e-9

/** Within `band` of `passAt`, both ends included; never without a band. */
export function isBorderline(score: number, passAt: number, band: number | undefined): boolean {
  return band !== undefined && Math.abs(score - passAt) <= band + SLACK
}
