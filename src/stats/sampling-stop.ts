// Adaptive samples (ADR 0360): a case takes `min` samples, then one more at a time up to `max`, and
// stops as soon as no outcome of the samples it has not taken could change its verdict. The verdict is
// the one `max` fixed samples give (passes ≥ required of max), so the gate sees the verdicts it would
// see at `max` samples: the same false alarms, the same power, fewer calls.

// Its wording in config_hash is STOPPING_RULE (src/suite/hashing.ts): a change here changes that text.

/** Why a case stopped sampling: its verdict was settled before `max`, or it took all `max`. */
export type SamplingStop = 'settled' | 'max'

export interface SamplingBounds {
  min: number
  max: number
  /** Passing samples of `max` the case needs to pass. */
  required: number
}

/** Whether the verdict at `max` is already fixed after `passed` of `taken` samples passed. */
export function verdictSettled(passed: number, taken: number, bounds: SamplingBounds): boolean {
  return passed >= bounds.required || taken - passed > bounds.max - bounds.required
}

/** After `taken` samples of which `passed` passed: why the case stops now, or undefined to take another. */
export function samplingStopAfter(passed: number, taken: number, bounds: SamplingBounds): SamplingStop | undefined {
  if (taken >= bounds.max) return 'max'
  if (taken >= bounds.min && verdictSettled(passed, taken, bounds)) return 'settled'
  return undefined
}

/** Where the rule stops on a sequence of sample passes: how many it takes and why (the sequence may be longer). */
export function samplingStopOf(passes: readonly boolean[], bounds: SamplingBounds): { taken: number; stopped: SamplingStop } | undefined {
  let passed = 0
  for (let taken = 1; taken <= passes.length; taken++) {
    if (passes[taken - 1]!) passed++
    const stopped = samplingStopAfter(passed, taken, bounds)
    if (stopped !== undefined) return { taken, stopped }
  }
  return undefined
}

/** The samples a case whose samples pass with chance q takes on average (exact, over the rule's paths). */
export function expectedSamples(q: number, bounds: SamplingBounds): number {
  // prob[p] = chance of having p passes after `taken` samples without having stopped yet.
  let prob = [1]
  let expected = 0
  for (let taken = 1; taken <= bounds.max; taken++) {
    const next = new Array<number>(taken + 1).fill(0)
    prob.forEach((chance, p) => {
      next[p + 1]! += chance * q
      next[p]! += chance * (1 - q)
    })
    for (let p = 0; p <= taken; p++) {
      if (next[p]! > 0 && samplingStopAfter(p, taken, bounds) !== undefined) {
        expected += taken * next[p]!
        next[p] = 0
      }
    }
    prob = next
  }
  return expected
}
