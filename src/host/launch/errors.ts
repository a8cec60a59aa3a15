// What a launch refuses or fails with: resumes, fresh keys, shards, the bill and the budget, MCP
// launches, a stop.
// A leaf: it imports only the errors base, so src/errors/catalogue.ts can collect it (ADR 0140).
import { DiglineRefusal, DiglineFailure, type RefusalFamily, type FailureFamily } from '../../errors/base.js'

export class ResumeMismatchError extends DiglineRefusal {
  readonly name = 'ResumeMismatchError'
}
export class ResumeFilteredError extends DiglineRefusal {
  readonly name = 'ResumeFilteredError'
}
export class ResumedSuiteNotDeclaredError extends DiglineRefusal {
  readonly name = 'ResumedSuiteNotDeclaredError'
}
export class PendingRunUnderKeyError extends DiglineRefusal {
  readonly name = 'PendingRunUnderKeyError'
}
export class BaselineRunOverwriteError extends DiglineRefusal {
  readonly name = 'BaselineRunOverwriteError'
}
export class RunExistsError extends DiglineRefusal {
  readonly name = 'RunExistsError'
}
export class InvalidShardError extends DiglineRefusal {
  readonly name = 'InvalidShardError'
}
export class ShardWithoutCreatedAtError extends DiglineRefusal {
  readonly name = 'ShardWithoutCreatedAtError'
}
export class BillNotAcknowledgedError extends DiglineRefusal {
  readonly name = 'BillNotAcknowledgedError'
}
export class BillChangedError extends DiglineRefusal {
  readonly name = 'BillChangedError'
}
export class LaunchNotPlannedError extends DiglineRefusal {
  readonly name = 'LaunchNotPlannedError'
}
export class OverBudgetError extends DiglineRefusal {
  readonly name = 'OverBudgetError'
}
export class RunStoppedError extends DiglineFailure {
  readonly name = 'RunStoppedError'
}
export class BudgetReachedError extends DiglineFailure {
  readonly name = 'BudgetReachedError'
}

export const LAUNCH_REFUSALS = {
  ResumeMismatchError: {
    error: ResumeMismatchError,
    when: 'A resume was asked for, but a fact the run document asserts (the field named) differs between the journal and the suite as it is now.',
    next: 'Restore what changed and resume again, or start a fresh run with `vitest run` (the journal stays on disk).',
  },
  ResumeFilteredError: {
    error: ResumeFilteredError,
    when: 'A `digline run --resume` came with a test-name filter (-t) or a file filter that leaves cases of the resumed run out; a resume runs whole suites.',
    next: 'Run `digline run --resume KEY` without -t and without file filters that leave the suite out.',
  },
  ResumedSuiteNotDeclaredError: {
    error: ResumedSuiteNotDeclaredError,
    when: 'A `digline run --resume` would finish a run of a suite that no suite file declares any more, so nothing would be resumed.',
    next: 'Restore the suite file (same name), then resume again; or remove the journal with `digline delete --suite S --run KEY`.',
  },
  PendingRunUnderKeyError: {
    error: PendingRunUnderKeyError,
    when: 'A fresh run would start under a key that already has a pending journal (a launch with the same DIGLINE_CREATED_AT was stopped); nothing was called.',
    next: 'Finish that run with `digline run --resume KEY`, or run with another DIGLINE_CREATED_AT (or none).',
  },
  BaselineRunOverwriteError: {
    error: BaselineRunOverwriteError,
    when: "A fresh run would be written under the key of the run its suite's baseline was promoted from (the same DIGLINE_CREATED_AT and config); nothing was called.",
    next: 'Run with another DIGLINE_CREATED_AT (or none): the run under the baseline is never overwritten.',
  },
  RunExistsError: {
    error: RunExistsError,
    when: 'A fresh run would be written under a key whose run document already exists (the same DIGLINE_CREATED_AT and config); runs are never overwritten, and nothing was called.',
    next: 'Run with another DIGLINE_CREATED_AT (or none), or remove the old run with `digline delete --suite S --run KEY` first.',
  },
  InvalidShardError: {
    error: InvalidShardError,
    when: 'DIGLINE_SHARD or `digline run --shard` is not i/N with whole numbers 1 ≤ i ≤ N, or a resume names a shard count other than the one its journal was started with.',
    next: 'Give --shard i/N (for example 2/4), the same N on every shard of a run, then run again.',
  },
  ShardWithoutCreatedAtError: {
    error: ShardWithoutCreatedAtError,
    when: 'A fresh sharded launch has no DIGLINE_CREATED_AT: each shard would take its own created_at, and so its own key, and the shards would never make one run.',
    next: 'Set DIGLINE_CREATED_AT to the same instant on every shard (in CI, from the workflow run), then run again.',
  },
  BillNotAcknowledgedError: {
    error: BillNotAcknowledgedError,
    when: 'An MCP client asked `run_suite` or `resume_run` to run with an acknowledgedCalls that is not the number of calls a fresh plan of that launch announces; nothing was called.',
    next: 'Call `plan_run` with the same arguments, read its bill, then call again with acknowledgedCalls equal to its calls.',
  },
  BillChangedError: {
    error: BillChangedError,
    when: 'A suite of a run an MCP client acknowledged came to a bill other than the acknowledged one when its worker prepared it (cases added, a cache cleared, a suite the plan did not have): the worker refused before any call, so nothing was called for that suite.',
    next: 'Call `plan_run` again, read its bill, then call `run_suite` or `resume_run` with acknowledgedCalls equal to its calls.',
  },
  LaunchNotPlannedError: {
    error: LaunchNotPlannedError,
    when: 'A plan of a launch for an MCP client (`plan_run`, or the fresh plan `run_suite` and `resume_run` take first) ended with vitest refusing or failing (a suite file that does not load, an invalid suite), so a run would not start as planned; nothing was called.',
    next: 'Fix what the quoted vitest lines name (`vitest list` shows whether the suite files load), then call plan_run again.',
  },
  OverBudgetError: {
    error: OverBudgetError,
    when: "A launch's announced bill (its calls, or its cost estimated from the suite's history) already exceeds the suite's budget or DIGLINE_BUDGET_USD; nothing was called.",
    next: 'Raise the budget, run fewer cases, or accept a run that stops at the budget with `digline run --over-budget` (DIGLINE_OVER_BUDGET=1 for `vitest run`).',
  },
} as const satisfies RefusalFamily

export const LAUNCH_FAILURES = {
  RunStoppedError: {
    error: RunStoppedError,
    when: 'The run was stopped before it finished (Ctrl-C, SIGTERM, --bail, or a case Vitest timed out): the calls in flight were aborted and no new call started.',
    next: 'Finish the run with `digline run --resume KEY` (the journaled cases are not called again).',
  },
  BudgetReachedError: {
    error: BudgetReachedError,
    when: "A launch reached its budget (the suite's budget.usd or budget.calls, or DIGLINE_BUDGET_USD): no new call started, the calls in flight finished and were journaled, and the cases not judged stay pending.",
    next: 'Finish the run with `digline run --resume KEY`, with a budget raised in the suite or in DIGLINE_BUDGET_USD (the budget is not part of the run, so changing it never blocks the resume).',
  },
} as const satisfies FailureFamily
