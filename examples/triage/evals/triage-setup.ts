// What both triage suites share: the model (fitted once per worker on the shipped training set), its
// declared settings, the held-out tickets, and the data files recorded as artifacts of every run.
import { fileURLToPath } from 'node:url'
import { loadTickets } from '../src/dataset.js'
import { createTriageModel, DEFAULT_SETTINGS, type TriageDecision } from '../src/triage-model.js'

/** Relative to the Vitest root (this example's directory); digline records their sha256 in each run. */
export const ARTIFACTS = ['data/train.jsonl', 'data/eval-cases.jsonl'] as const

const dataFile = (name: string) => fileURLToPath(new URL(`../data/${name}`, import.meta.url))

export const SETTINGS = DEFAULT_SETTINGS
export const model = createTriageModel(dataFile('train.jsonl'), SETTINGS)

/** Held-out tickets: none of them is in the training set. */
export const heldOut = loadTickets(dataFile('eval-cases.jsonl'))

/**
 * Ask the model as a target would ask an LLM: the sample's randomness comes from (case id, sample),
 * so a rerun draws the same answers and a resumed run is byte-identical to an uninterrupted one.
 */
export async function triage(text: string, ctx: { caseId: string; sample: number; signal: AbortSignal }): Promise<TriageDecision> {
  ctx.signal.throwIfAborted()
  await new Promise((resolve) => setImmediate(resolve))
  return model.triage(text, `${ctx.caseId}#${ctx.sample}`)
}
