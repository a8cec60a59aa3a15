// The harness's figures: each is logged as a `[reliability] …` line and, when the reliability run's
// global setup asked for it (DIGLINE_RELIABILITY_FIGURES), appended to a file its teardown sums up.
import { appendFileSync } from 'node:fs'

export const LONG = process.env.DIGLINE_RELIABILITY_LONG === '1'

/** Inputs per fuzzed input kind: 300 in CI, 10,000 in the long mode (over 100,000 in all). */
export const FUZZ_RUNS = Number(process.env.DIGLINE_FUZZ_RUNS ?? (LONG ? 10_000 : 300))

export type FigureName =
  | 'kills'
  | 'crash points'
  | 'power-loss points'
  | 'I/O error points'
  | 'inputs fuzzed'
  | 'attacks refused'
  | 'cases lost'
  | 'documents differing'
  | 'outside writes'
  | 'manual recoveries'
  | 'stray temp files'

export function figure(name: FigureName, value: number, detail: string): void {
  console.log(`[reliability] ${name}: ${value.toLocaleString('en-US')} — ${detail}`)
  const file = process.env.DIGLINE_RELIABILITY_FIGURES
  if (file !== undefined && file !== '') appendFileSync(file, `${JSON.stringify({ name, value, detail })}\n`)
}
