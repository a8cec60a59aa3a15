// The sample step of a conversation suite (SPEC §16, ADR 0311): the user speaks (a scripted line,
// or the simulated user's next message), the target answers with the messages so far, and so on
// until the script ends, the simulated user stops, or the turn limit is reached. The whole
// conversation is one answer (its `turns`), settled and scored as any answer is; its case is one
// journal record, so a killed run calls the conversations in flight again, whole.
import { usageFrom } from '../document/answer-shape.js'
import { conversationOf, SIMULATED_USER, type SimulatedUserReply } from '../suite/conversation.js'
import type { ChatMessage } from '../models/chat-model.js'
import { turnText, type AnswerTurn } from '../suite/turns.js'
import type { TargetAnswer } from '../suite/types.js'
import { modelCallsOf } from '../suite/steps.js'
import { CaseError, type CaseContext, type SampleStep } from './sample-step.js'
import { checkAnswer, messageOf, sampleLabel, settleAnswer } from './single-answer-step.js'

export const conversationStep: SampleStep = async (context, sample) => {
  const { suite, evalCase, stop } = context
  const where = sampleLabel(sample, suite.rules.samples)
  const plan = conversationOf(evalCase.input)
  // resolveSuite refused such a case before any call; reaching here is digline's own defect.
  if (typeof plan === 'string') throw new Error(`case ${JSON.stringify(evalCase.id)} is no conversation: ${plan}`)
  const user = suite.conversation?.user
  const timed = suite.rules.tolerances.latency_per_case !== undefined
  const turns: AnswerTurn[] = []
  const history: ChatMessage[] = []
  let output: unknown
  let answered = 0
  let targetMs = 0
  const limit = plan.kind === 'scripted' ? plan.script.length : (plan.maxTurns ?? user!.maxTurns)
  while (answered < limit) {
    if (stop.aborted) throw new CaseError('target', `${where}: turn ${answered}: not asked, the run was stopped`)
    let said: string
    if (plan.kind === 'scripted') {
      said = plan.script[answered]!
      turns.push({ role: 'user', content: said })
    } else {
      const reply = await userSays(context, where, answered, plan.persona, plan.goal, turns)
      const turn: AnswerTurn = { role: 'user', content: reply.text }
      if (reply.usage !== undefined) turn.usage = reply.usage
      if (reply.latencyMs !== undefined && timed) turn.latency_ms = reply.latencyMs
      turns.push(turn)
      if (reply.done) break
      said = reply.text
    }
    history.push({ role: 'user', content: said })
    const started = performance.now()
    // Tool replay keys each turn's calls by the turn (ADR 0381): a replay serves the call the same turn made.
    const tools = context.tools?.(evalCase.id, sample, stop.signal, answered)
    let raw: TargetAnswer
    try {
      context.calls.count++
      raw = await suite.ask(history.slice(), { caseId: evalCase.id, sample, signal: stop.signal, turn: answered, ...(tools === undefined ? {} : { tools }) })
    } catch (error) {
      throw new CaseError('target', `${where}: turn ${answered}: ${tools?.refusal() ?? messageOf(error)}`)
    }
    const ms = Math.round(performance.now() - started)
    // A call strict tool replay refused errors the case, even when the target caught it and answered.
    const refusal = tools?.refusal()
    if (refusal !== undefined) throw new CaseError('target', `${where}: turn ${answered}: ${refusal}`)
    const answer = checkAnswer(raw, suite.recordResponses)
    if (typeof answer === 'string') throw new CaseError('target', `${where}: turn ${answered}: malformed answer: ${answer}`)
    if (answer.turns !== undefined)
      throw new CaseError('target', `${where}: turn ${answered}: malformed answer: a conversation's target answers one turn at a time (no turns of its own)`)
    try {
      context.identity.seeTarget(answer.model)
    } catch (error) {
      throw new CaseError('target', `${where}: turn ${answered}: ${messageOf(error)}`)
    }
    if (answer.steps !== undefined) context.calls.count += Math.max(0, modelCallsOf(answer.steps) - 1)
    const turn: AnswerTurn = { role: 'assistant', content: answer.output }
    if (answer.usage !== undefined) turn.usage = answer.usage
    if (timed) {
      turn.latency_ms = ms
      targetMs += ms
    }
    if (answer.steps !== undefined) turn.steps = answer.steps
    turns.push(turn)
    history.push({ role: 'assistant', content: turnText(answer.output) })
    output = answer.output
    answered++
  }
  if (answered === 0) throw new CaseError('scorer', `${where}: the simulated user ended the conversation before the target was asked anything`)
  // The target's identity is pinned turn by turn above; the whole conversation is settled as one answer.
  return settleAnswer(context, sample, { output, turns }, { cached: false, latencyMs: timed ? targetMs : undefined, keep: false, countedCalls: true })
}

async function userSays(
  context: CaseContext,
  where: string,
  turn: number,
  persona: string,
  goal: string,
  turns: readonly AnswerTurn[],
): Promise<SimulatedUserReply & { latencyMs?: number }> {
  const user = context.suite.conversation!.user!
  const started = performance.now()
  let reply: SimulatedUserReply
  try {
    // The simulated user's model calls count against a calls budget as the target's do (SPEC §16).
    context.calls.count++
    reply = await user.next({ persona, goal, turns: turns.slice(), signal: context.stop.signal })
  } catch (error) {
    throw new CaseError('scorer', `${where}: turn ${turn}: the simulated user: ${messageOf(error)}`)
  }
  const latencyMs = Math.round(performance.now() - started)
  if (reply === null || typeof reply !== 'object' || typeof reply.text !== 'string' || typeof reply.done !== 'boolean') {
    throw new CaseError('scorer', `${where}: turn ${turn}: the simulated user must reply { text, done, model?, usage? }`)
  }
  const usage = reply.usage === undefined ? undefined : usageFrom(reply.usage)
  if (typeof usage === 'string') throw new CaseError('scorer', `${where}: turn ${turn}: the simulated user's usage must be ${usage}`)
  if (!reply.done && reply.text.trim() === '') throw new CaseError('scorer', `${where}: turn ${turn}: the simulated user wrote an empty message without ending the conversation`)
  try {
    context.identity.seeJudge(SIMULATED_USER, reply.model)
  } catch (error) {
    throw new CaseError('scorer', `${where}: turn ${turn}: the simulated user: ${messageOf(error)}`)
  }
  return { text: reply.text, done: reply.done, ...(usage === undefined ? {} : { usage }), latencyMs }
}
