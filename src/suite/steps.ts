// The steps an agent took to reach its answer (SPEC §16): model calls and tool calls, in the order
// they happened. A target gives them with its answer; scorers see them whole; the document keeps
// their private parts (arguments, results, error messages) only when the run records responses.

/** Token counts, as suite/types.ts's TokenUsage (written out here: types.ts imports this module). */
interface StepUsage {
  input_tokens: number
  output_tokens: number
}

/** One call to a model: which model answered, what it spent, how long it took. */
export interface ModelCallStep {
  type: 'model'
  model?: string
  usage?: StepUsage
  latency_ms?: number
}

/** One tool call as the target reports it: the tool's name, its arguments, and its result or error. */
export interface TargetToolStep {
  type: 'tool'
  name: string
  arguments?: unknown
  result?: unknown
  /** The tool failed: its message (kept only when responses are recorded). */
  error?: string
  latency_ms?: number
}

/** A step as a target gives it. */
export type TargetStep = ModelCallStep | TargetToolStep

/** A tool call as the document and the scorers hold it: `ok` says whether it failed, whatever is recorded. */
export interface ToolCallStep extends TargetToolStep {
  ok: boolean
}

/** A step as the document and the scorers hold it. */
export type AnswerStep = ModelCallStep | ToolCallStep

/** The tool calls among the steps, in order. */
export function toolCallsOf(steps: readonly AnswerStep[] | undefined): ToolCallStep[] {
  return (steps ?? []).filter((s): s is ToolCallStep => s.type === 'tool')
}

/** How many model calls the steps hold. */
export function modelCallsOf(steps: readonly AnswerStep[] | undefined): number {
  let n = 0
  for (const s of steps ?? []) if (s.type === 'model') n++
  return n
}
