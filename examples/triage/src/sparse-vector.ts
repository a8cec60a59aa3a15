// Sparse vectors keyed by term, and the three operations the classifier needs.

export type SparseVector = Map<string, number>

export function dot(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  let sum = 0
  for (const [term, value] of small) sum += value * (large.get(term) ?? 0)
  return sum
}

/** The vector scaled to length 1 (the zero vector stays zero). */
export function normalize(v: SparseVector): SparseVector {
  let norm = 0
  for (const value of v.values()) norm += value * value
  norm = Math.sqrt(norm)
  if (norm === 0) return new Map(v)
  const out: SparseVector = new Map()
  for (const [term, value] of v) out.set(term, value / norm)
  return out
}

/** The component-wise mean of the vectors. */
export function mean(vectors: readonly SparseVector[]): SparseVector {
  const out: SparseVector = new Map()
  for (const v of vectors) for (const [term, value] of v) out.set(term, (out.get(term) ?? 0) + value)
  for (const [term, value] of out) out.set(term, value / Math.max(1, vectors.length))
  return out
}
