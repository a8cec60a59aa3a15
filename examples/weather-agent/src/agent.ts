// A small deterministic agent: a rule-based planner stands in for the model. Each planning turn is
// a model step (its "tokens" are the words it read and wrote); each tool it asks for runs through
// callTool, so a launch can record its result or replay it (the suite's toolReplay), and becomes a
// tool step. The target returns the answer with every step, as an LLM agent built on openaiAgent or
// aiSdkAgent would (they call the tools through tool replay by themselves).
import { callTool, type TargetObject, type TargetStep } from 'digline'
import { tools, type ToolName } from './tools.js'

type Call = { name: ToolName; args: Record<string, unknown> }
type Seen = { name: ToolName; result?: Record<string, unknown>; error?: string }

/** The planner: what to do next, given the question and what the tools said so far. */
function plan(question: string, seen: readonly Seen[]): Call | { answer: string } {
  const city = /weather in ([A-Za-z]+)/.exec(question)?.[1] ?? ''
  const fahrenheit = /fahrenheit/i.test(question)
  const last = seen.at(-1)
  if (last?.error !== undefined) return { answer: `I could not find the weather in ${city}.` }
  if (last === undefined) return { name: 'lookup_city', args: { city } }
  if (last.name === 'lookup_city') return { name: 'read_station', args: { station: last.result!.station } }
  if (last.name === 'read_station' && fahrenheit) return { name: 'to_fahrenheit', args: { celsius: last.result!.celsius } }
  if (last.name === 'read_station') return { answer: `It is ${String(last.result!.celsius)} °C in ${city}.` }
  return { answer: `It is ${String(last.result!.fahrenheit)} °F in ${city}.` }
}

const words = (text: string): number => text.split(/\s+/).filter(Boolean).length

export const weatherAgent: TargetObject<string, string> = {
  config: { agent: 'rule-planner', version: 2, tools: Object.keys(tools).sort() },
  async ask(question, ctx) {
    const steps: TargetStep[] = []
    const seen: Seen[] = []
    for (let turn = 0; turn < 6; turn++) {
      const next = plan(question, seen)
      const wrote = 'answer' in next ? next.answer : JSON.stringify(next)
      steps.push({ type: 'model', model: 'rule-planner-2', usage: { input_tokens: words(question) + 8 * seen.length, output_tokens: words(wrote) } })
      if ('answer' in next) return { output: next.answer, model: 'rule-planner-2', steps }
      const run = tools[next.name] as unknown as (args: Record<string, unknown>) => Record<string, unknown>
      try {
        const result = await callTool(ctx, next.name, next.args, () => run(next.args))
        seen.push({ name: next.name, result })
        steps.push({ type: 'tool', name: next.name, arguments: next.args, result })
      } catch (error) {
        seen.push({ name: next.name, error: (error as Error).message })
        steps.push({ type: 'tool', name: next.name, arguments: next.args, error: (error as Error).message })
      }
    }
    return { output: 'I gave up.', model: 'rule-planner-2', steps }
  },
}
