// Small numeric helpers: medians of repetitions, ratios, and how numbers are shown in the table.

export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return NaN
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export function min(values) {
  return Math.min(...values)
}

export function max(values) {
  return Math.max(...values)
}

/** Median of pairwise ratios a[i]/b[i] (each pair measured back to back), not ratio of medians. */
export function pairedRatio(a, b) {
  return median(a.map((x, i) => x / b[i]))
}

export const fmt = {
  ms: (x) => (Number.isFinite(x) ? `${x < 10 ? x.toFixed(3) : x < 100 ? x.toFixed(1) : Math.round(x).toLocaleString('en-US')} ms` : 'n/a'),
  s: (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : 'n/a'),
  x: (r) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : 'n/a'),
  /** A ratio held against a goal: three decimals, so 2.003× is not shown as a missed 2.00×. */
  x3: (r) => (Number.isFinite(r) ? `${r.toFixed(3)}×` : 'n/a'),
  pct: (r) => (Number.isFinite(r) ? `${(r * 100).toFixed(1)}%` : 'n/a'),
  mib: (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1048576).toFixed(1)} MiB` : 'n/a'),
  kib: (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(1)} KiB` : 'n/a'),
  bytes: (b) => (Number.isFinite(b) ? `${Math.round(b).toLocaleString('en-US')} B` : 'n/a'),
  int: (n) => Math.round(n).toLocaleString('en-US'),
}

/** Runs `fn` with the clock around it; returns milliseconds. */
export async function timed(fn) {
  const start = process.hrtime.bigint()
  const value = await fn()
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value }
}
