// The models a run actually talked to. One run measures one system: the first model id a target or
// a judge reports is pinned for the rest of the run (or seeded from the journal on a resume), and a
// different id afterwards is refused so that the case errors instead of averaging two systems. An id
// that would not fit the room the document's header keeps for the identities errors its case too:
// it is never pinned, so the run is written instead of refused after every call was paid.
import { ObservedIdentityChangedError } from './errors.js'
import { OBSERVED_LIMIT_BYTES, observedBytes } from '../document/observed-limit.js'
import type { Observed } from '../document/schema.js'

const NEXT = 'Pin the model id instead of an alias, or evaluate each model as its own run.'

/** A model id the run could not keep: its case errors, and the id is not pinned. */
export class ObservedIdentityTooLargeError extends Error {
  override name = 'ObservedIdentityTooLargeError'
}

const jsonBytes = (text: string): number => Buffer.byteLength(JSON.stringify(text), 'utf8')

export class ObservedIdentity {
  private targetModel: string | null
  private readonly judgeModels = new Map<string, string>()
  /** The bytes snapshot() takes as JSON, kept up to date so a new id is measured without serializing the rest. */
  private bytes: number
  /** The last snapshot, handed out again until an id is pinned (every case asks for one). */
  private taken: Observed | undefined

  constructor(seed?: Observed) {
    this.targetModel = seed?.target_model ?? null
    for (const [name, model] of Object.entries(seed?.judge_models ?? {})) this.judgeModels.set(name, model)
    this.bytes = observedBytes(this.snapshot())
  }

  /** Seeds the identity from what an earlier leg of the same run observed. */
  static resume(seed: Observed): ObservedIdentity {
    return new ObservedIdentity(seed)
  }

  /** Records the target's reported model; throws ObservedIdentityChangedError when it differs from the pinned one. */
  seeTarget(model: string | undefined): void {
    if (model === undefined) return
    if (this.targetModel === null) {
      // `null` gives way to the quoted id
      this.bytes = this.fits("the target's", model, this.bytes - 4 + jsonBytes(model))
      this.targetModel = model
      this.taken = undefined
      return
    }
    if (this.targetModel !== model) throw changed("the target's", this.targetModel, model)
  }

  /** Records the model a judge scorer reported, keyed by the scorer's name. */
  seeJudge(scorer: string, model: string | undefined): void {
    if (model === undefined) return
    const pinned = this.judgeModels.get(scorer)
    if (pinned === undefined) {
      // `"scorer":"model"`, and a comma unless it is the first judge
      const entry = jsonBytes(scorer) + 1 + jsonBytes(model) + (this.judgeModels.size === 0 ? 0 : 1)
      this.bytes = this.fits(`judge ${JSON.stringify(scorer)}'s`, model, this.bytes + entry)
      this.judgeModels.set(scorer, model)
      this.taken = undefined
      return
    }
    if (pinned !== model) throw changed(`judge ${JSON.stringify(scorer)}'s`, pinned, model)
  }

  /** The new size when it fits; otherwise why the id cannot be kept. */
  private fits(whose: string, model: string, bytes: number): number {
    if (bytes <= OBSERVED_LIMIT_BYTES) return bytes
    throw new ObservedIdentityTooLargeError(
      `${whose} model id is ${jsonBytes(model)} bytes long (${JSON.stringify(model.slice(0, 40))}…); a run keeps the model ids it observes in its document's header, which has room for ${OBSERVED_LIMIT_BYTES} bytes of them (${this.bytes} taken). Report the model's id, not a description of it`,
    )
  }

  /** What has been observed so far, with judges in name order (stable bytes); frozen, and the same object until an id is pinned. */
  snapshot(): Observed {
    if (this.taken !== undefined) return this.taken
    const judge_models: Record<string, string> = {}
    for (const name of [...this.judgeModels.keys()].sort()) judge_models[name] = this.judgeModels.get(name)!
    this.taken = Object.freeze({ target_model: this.targetModel, judge_models: Object.freeze(judge_models) })
    return this.taken
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
