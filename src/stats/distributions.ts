// The few distributions the gates need, exactly enough for a 95% decision: the regularized incomplete
// beta (which gives the binomial tail and Student's t), Clopper–Pearson bounds for a binomial share,
// and the t quantile. Written from the textbook definitions; results are cached because a plan's
// simulation asks for the same few values hundreds of thousands of times.

/** ln Γ(x) for x > 0: the recurrence up to x ≥ 10, then Stirling's series (error below 1e-13). */
export function logGamma(x: number): number {
  let shift = 0
  while (x < 10) {
    shift -= Math.log(x)
    x += 1
  }
  const inv = 1 / x
  const inv2 = inv * inv
  const series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680))))
  return shift + (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + series
}

/** The continued fraction of I_x(a, b) (modified Lentz), valid for x < (a + 1) / (a + b + 2). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < tiny) d = tiny
  d = 1 / d
  let h = d
  for (let m = 1; m <= 10_000; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m))
    d = 1 + even * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + even / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    h *= d * c
    const odd = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1))
    d = 1 + odd * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + odd / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const step = d * c
    h *= step
    if (Math.abs(step - 1) < 1e-15) break
  }
  return h
}

/** The regularized incomplete beta function I_x(a, b), a, b > 0. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x))
  if (x < (a + 1) / (a + b + 2)) return (front * betaFraction(a, b, x)) / a
  return 1 - (front * betaFraction(b, a, 1 - x)) / b
}

/** P(X ≥ k) for X ~ Binomial(n, p). */
export function binomialAtLeast(k: number, n: number, p: number): number {
  if (k <= 0) return 1
  if (k > n) return 0
  return incompleteBeta(p, k, n - k + 1)
}

/** The p in [0, 1] where a decreasing-or-increasing `f` crosses `target`, by bisection. */
function solve(f: (p: number) => number, target: number, increasing: boolean): number {
  let lo = 0
  let hi = 1
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2
    if (f(mid) < target === increasing) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}

const boundsCache = new Map<string, readonly [number, number]>()

/**
 * The Clopper–Pearson bounds for the share behind `k` successes of `n` at one-sided level `alpha`
 * each: the low bound is the p where P(X ≥ k) = alpha, the high where P(X ≤ k) = alpha. Exact: each
 * bound is wrong with chance at most alpha whatever the true share.
 */
export function clopperPearson(k: number, n: number, alpha: number): readonly [number, number] {
  const key = `${k}/${n}/${alpha}`
  const cached = boundsCache.get(key)
  if (cached !== undefined) return cached
  const low = k === 0 ? 0 : solve((p) => binomialAtLeast(k, n, p), alpha, true)
  const high = k === n ? 1 : solve((p) => 1 - binomialAtLeast(k + 1, n, p), alpha, false)
  const out = [low, high] as const
  if (boundsCache.size > 100_000) boundsCache.clear()
  boundsCache.set(key, out)
  return out
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom. */
export function studentCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5)
  return t >= 0 ? 1 - tail : tail
}

const quantileCache = new Map<string, number>()

/** The t with P(T ≤ t) = p for Student's t with `df` degrees of freedom (p in (0.5, 1)). */
export function studentQuantile(p: number, df: number): number {
  const key = `${p}/${df}`
  const cached = quantileCache.get(key)
  if (cached !== undefined) return cached
  let lo = 0
  let hi = 1
  while (studentCdf(hi, df) < p) hi *= 2
  for (let i = 0; i < 80; i++) {
    const mid = (lo + hi) / 2
    if (studentCdf(mid, df) < p) lo = mid
    else hi = mid
  }
  const out = (lo + hi) / 2
  quantileCache.set(key, out)
  return out
}

/** The t of a two-sided 95% interval (each side 2.5%). */
export const t95 = (df: number): number => studentQuantile(0.975, df)

/** P(Z ≤ z) for the standard normal (erfc by its Chebyshev fit, relative error below 1.2e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2
  const t = 1 / (1 + 0.5 * x)
  const poly =
    -x * x -
    1.26551223 +
    t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))
  const erfc = t * Math.exp(poly)
  return z >= 0 ? 1 - erfc / 2 : erfc / 2
}

/** The z with P(Z ≤ z) = p, by bisection. */
export function normalQuantile(p: number): number {
  let lo = -40
  let hi = 40
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2
    if (normalCdf(mid) < p) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}
