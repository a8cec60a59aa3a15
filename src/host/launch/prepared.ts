// What a prepared launch is, once decided and before the first call, and the response cache it may
// carry: the types the launch, the journal header and the cache share. They live below
// prepare-run.ts, resume.ts and answer-cache.ts, which all import them, so none imports another's types.
import type { CaseResult, Observed } from '../../document/schema.js'
import type { CachedTargetAnswer } from '../../suite/cache-key.js'
import type { Budget, ResolvedSuite, Slice } from '../../suite/types.js'
import type { Shard } from './shard.js'
import type { ToolReplay } from '../tools/tool-replay.js'

export interface CallPlan {
  /** Cases in the suite (or in the filter, when one is given). */
  cases: number
  /** A filtered run (-t or a file filter), never filed: the suite's cases, of which `cases` were selected. */
  filteredFrom?: number
  /** Cases this launch will call. */
  toCall: number
  samples: number
  /** With adaptive samples (ADR 0360): the fewest a case takes; `samples` is then the most, and `calls` a ceiling. */
  minSamples?: number
  /**
   * Set when every case is a conversation (ADR 0382): `calls` then counts each target turn and each
   * simulated-user message; with a simulated user it is a ceiling (the user may end early).
   */
  conversation?: 'scripted' | 'simulated'
  /** toCall × samples (× each conversation's calls), less the answers from the cache: the calls the target will receive. */
  calls: number
  /** Answers the response cache gives this launch instead of calls. */
  cached: number
  /** Cases already judged in a journal and not called again. */
  reused: number
  /** Cases that errored in a journal and are called again. */
  retried: number
  /** This launch finishes a journaled run. */
  resumed: boolean
  /** A slice by tag (`digline run --tag T`): `cases` are the slice's, of the suite's `slice.suite_cases`. */
  slice?: Slice
  /** A sharded launch: its shard (`i/N`) and how many cases are its share. */
  shard?: string
  share?: number
}

export interface Prepared {
  suite: ResolvedSuite
  tenant: string
  environment: string
  createdAt: string
  configHash: string
  casesDigest: string
  /** Each declared case's own digest, in the suite's order (the journal header declares them). */
  caseDigests: Record<string, string>
  key: string
  gitCommit: string | undefined
  artifacts: Record<string, string>
  plan: CallPlan
  /** Case ids to run when Vitest filters the suite's tests; undefined means all. */
  only: ReadonlySet<string> | undefined
  /** Cases judged in an earlier leg and not called again. */
  done: ReadonlyMap<string, CaseResult>
  /** The observed identities an earlier leg recorded. */
  observedSeed: Observed | undefined
  /** The journal leg this launch writes. */
  leg: number
  /** The response cache, when this launch uses it. */
  cache?: AnswerCache
  /** Tool replay, when this launch has it on (SPEC §16). */
  toolReplay?: ToolReplay
  /** This launch's budget, when it has one. */
  budget?: Budget
  /** The shard this launch runs (DIGLINE_SHARD), and the cases that are its share; undefined for a whole run. */
  shard?: Shard
  mine?: ReadonlySet<string>
}

export interface AnswerCache {
  /** Cached answers by case id and sample index, for the cases this launch calls. */
  hits: Map<string, (CachedTargetAnswer | undefined)[]>
  /** How many answers the cache gives this launch. */
  count: number
  /** Files an answer the target gave; a failure to file it is said once and never stops the run. */
  keep(caseId: string, sample: number, answer: CachedTargetAnswer): Promise<void>
}
