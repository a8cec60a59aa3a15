import type { BaselineDocument } from '../../src/document/baseline.js'
import type { Aggregates, CaseResult, RunDocument } from '../../src/document/schema.js'
import type { ComparedBaseline } from '../../src/host/judge/compare.js'

/** The parts of digline the simulation runs through (from src/ in tests, from dist/ in the bench). */
export interface SimulationParts {
  SCHEMA_VERSION: number
  aggregate(results: CaseResult[], rules: RunDocument['rules']): Aggregates
  baselineOf(run: RunDocument, key: string, promotedAt: string): BaselineDocument
  keyFor(createdAt: string, configHash: string): string
  compareRuns(baseline: BaselineDocument, run: RunDocument): Pick<ComparedBaseline, 'regressed' | 'gates' | 'difference' | 'warnings'>
  seededRandom(seed: number): () => number
}

export interface SimulationOptions {
  /** Cases in the suite. */
  cases: number
  /** Baseline/run pairs drawn. */
  repetitions: number
  seed: number
  /** How much lower the run's expected pass rate is than the baseline's (0 for A/A). */
  drop: number
  /** The suite's pass-rate tolerance (default 0). */
  tolerance?: number
}

export interface SimulationResult {
  cases: number
  repetitions: number
  drop: number
  tolerance: number
  /** The target's expected pass rate (the mean of the per-case probabilities). */
  expectedPassRate: number
  /** Repetitions compareRuns flagged as a regression. */
  flagged: number
  /** flagged / repetitions. */
  rate: number
  /** Repetitions a raw-score gate (any drop beyond the tolerance) would have flagged. */
  naiveFlagged: number
  naiveRate: number
}

export function caseProbabilities(cases: number, random: () => number): number[]
export function simulateRegressionGate(digline: SimulationParts, options: SimulationOptions): SimulationResult
/** One line for a person: what was simulated and how often the gate fired. */
export function describeSimulation(r: SimulationResult): string
/** One run document of a stochastic target: case i passes with probabilities[i]. */
export function drawRun(
  digline: Pick<SimulationParts, 'SCHEMA_VERSION' | 'aggregate'>,
  probabilities: readonly number[],
  random: () => number,
  tolerance: number,
  createdAt: string,
): RunDocument
