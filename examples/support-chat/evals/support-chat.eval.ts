import { evalSuite, scorers } from 'digline'
import { simulatedUser } from 'digline/models'
import { answer, type Message } from '../src/assistant.js'
import { rulesCustomer } from '../src/customer.js'

evalSuite({
  name: 'support-chat',
  cases: [
    // Scripted: the user's lines are fixed; the assistant answers each with the conversation so far.
    { id: 'scripted-refund', input: { script: ['Hello', 'My order is 1001', 'I want a refund', 'Thanks, bye'] }, expected: 'Refund issued' },
    { id: 'scripted-status', input: { script: ['Where is order 1002?', 'Thanks'] }, expected: 'in transit' },
    // Simulated: a model plays the customer, with a persona and a goal, until it says it is done.
    { id: 'simulated-refund', input: { persona: 'A polite customer, brief', goal: 'Get a refund for order 1003' }, expected: 'Refund issued' },
    { id: 'simulated-early', input: { persona: 'An impatient customer', goal: 'Get a refund for order 1002', maxTurns: 4 }, expected: 'refunded once' },
  ],
  target: {
    config: { assistant: 'support-rules-v1' },
    // In a conversation the input is the messages so far: [{ role, content }, …].
    ask: async (messages: Message[]) => ({ output: answer(messages), model: 'support-rules-v1' }),
  },
  scorers: [
    // Reads the whole transcript: some answer of the assistant says what the case expects.
    {
      name: 'resolved',
      score: ({ turns, expected }) => (turns ?? []).some((t) => t.role === 'assistant' && String(t.content).includes(String(expected))),
    },
    // The conversation ends politely: the last answer is the assistant's goodbye or the resolution.
    scorers.regex(/Goodbye|Refund issued|once it is delivered|in transit/),
  ],
  conversation: { user: simulatedUser({ model: rulesCustomer, maxTurns: 6 }) },
  thresholds: { passRate: 1 },
  concurrency: 4,
})
