// A rate as every verdict line shows it: one decimal and a percent sign, or n/a.
export const percent = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`)

/** A pass rate reads as a percentage, a mean score as a score. */
export function formatMeasure(field: 'pass_rate' | 'mean_score', value: number | null): string {
  return field === 'pass_rate' ? percent(value) : value === null ? 'n/a' : value.toFixed(3)
}
