// The models a run actually talked to. One run measures one system: the first model id a target or
// a judge reports is pinned for the rest of the run (or seeded from the journal on a resume), and a
// different id afterwards is refused so that the case errors instead of averaging two systems.
import { ObservedIdentityChangedError } from './errors.js'
import type { Observed } from '../document/schema.js'

const NEXT = 'Pin the model id instead of an alias, or evaluate each model as its own run.'

export class ObservedIdentity {
  private targetModel: string | null
  private readonly judgeModels = new Map<string, string>()

  constructor(seed?: Observed) {
    this.targetModel = seed?.target_model ?? null
    for (const [name, model] of Object.entries(seed?.judge_models ?? {})) this.judgeModels.set(name, model)
  }

  /** Seeds the identity from what an earlier leg of the same run observed. */
  static resume(seed: Observed): ObservedIdentity {
    return new ObservedIdentity(seed)
  }

  /** Records the target's reported model; throws ObservedIdentityChangedError when it differs from the pinned one. */
  seeTarget(model: string | undefined): void {
    if (model === undefined) return
    if (this.targetModel === null) {
      this.targetModel = model
      return
    }
    if (this.targetModel !== model) throw changed("the target's", this.targetModel, model)
  }

  /** Records the model a judge scorer reported, keyed by the scorer's name. */
  seeJudge(scorer: string, model: string | undefined): void {
    if (model === undefined) return
    const pinned = this.judgeModels.get(scorer)
    if (pinned === undefined) {
      this.judgeModels.set(scorer, model)
      return
    }
    if (pinned !== model) throw changed(`judge ${JSON.stringify(scorer)}'s`, pinned, model)
  }

  /** A copy of what has been observed so far, with judges in name order (stable bytes). */
  snapshot(): Observed {
    const judge_models: Record<string, string> = {}
    for (const name of [...this.judgeModels.keys()].sort()) judge_models[name] = this.judgeModels.get(name)!
    return { target_model: this.targetModel, judge_models }
  }
}

function changed(whose: string, first: string, now: string): ObservedIdentityChangedError {
  return new ObservedIdentityChangedError(`${whose} model changed within the run: first ${JSON.stringify(first)}, now ${JSON.stringify(now)}`, NEXT)
}

/** The one-line form a case's error message carries: the class name, what changed, what to do. */
export function describeIdentityChange(error: ObservedIdentityChangedError): string {
  const what = error.message.endsWith(`\n  next: ${error.next}`) ? error.message.slice(0, -`\n  next: ${error.next}`.length) : error.message
  return `${error.name}: ${what}. ${error.next}`
}
