// A rate as every verdict line shows it: one decimal and a percent sign, or n/a.
export const percent = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`)
