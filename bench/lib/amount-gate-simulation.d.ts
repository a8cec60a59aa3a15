import type { SimulationParts } from './regression-simulation.js'

/** The parts of digline the simulation runs through (from src/ in tests, from dist/ in the bench). */
export type AmountSimulationParts = SimulationParts

export type AmountGateName = 'cost_per_case' | 'latency_per_case'

export const AMOUNT_MODELS: Record<AmountGateName, { typical: number; between: number; within: number }>

export interface AmountSimulationOptions {
  gate: AmountGateName
  /** Cases in the suite. */
  cases: number
  /** Baseline/run pairs drawn. */
  repetitions: number
  seed: number
  /** How much more the run costs (or takes) per case than the baseline, relative (0 for A/A). */
  rise: number
  /** The suite's tolerance for the gate (default 0). */
  tolerance?: number
  /** How much cases differ (σ on the log scale); default the model's. */
  between?: number
}

export interface AmountSimulationResult {
  gate: AmountGateName
  cases: number
  repetitions: number
  rise: number
  tolerance: number
  between: number
  /** Repetitions compareRuns flagged as a regression. */
  flagged: number
  /** The share the rule before ADR 0121 flagged, and whose interval went below −100%. */
  beforeRate: number
  beforeImpossibleRate: number
  /** flagged / repetitions. */
  rate: number
}

export function simulateAmountGate(digline: AmountSimulationParts, options: AmountSimulationOptions): AmountSimulationResult
/** One line for a person: what was simulated and how often the gate fired. */
export function describeAmountSimulation(r: AmountSimulationResult): string
