// A deterministic simulated customer: a chat model of our own that follows rules instead of
// sampling, so the example runs offline. digline's simulatedUser() sends it a system prompt with
// the persona, the goal and the stop word, and the conversation so far as one message.
import type { ChatModel, ChatRequest } from 'digline/models'

const STOP = '[DONE]'

export const rulesCustomer: ChatModel = {
  config: { provider: 'rules', model: 'customer-rules-v1' },
  async complete({ messages }: ChatRequest) {
    const system = messages[0]!.content
    const transcript = messages[1]!.content
    const order = system.match(/order (\d{4})/)?.[1] ?? '0000'
    const wantsRefund = /Goal:.*refund/i.test(system)
    const assistant = [...transcript.matchAll(/^Assistant: (.*)$/gm)].map((m) => m[1]!)
    const last = assistant[assistant.length - 1] ?? ''
    let text: string
    if (assistant.length === 0) text = 'Hi, I have a question about an order.'
    else if (/order number/i.test(last)) text = `It is order ${order}.`
    else if (/Refund issued/.test(last)) text = `Thanks, that is all. ${STOP}`
    else if (/can be refunded once/.test(last)) text = `I see, I will wait then. ${STOP}`
    else if (wantsRefund) text = `I would like a refund for order ${order}, please.`
    else text = `Thanks. ${STOP}`
    // Tokens as a provider would count them, so the run document shows the simulated user's usage.
    return { text, model: 'customer-rules-v1', usage: { input_tokens: Math.ceil((system.length + transcript.length) / 4), output_tokens: Math.ceil(text.length / 4) } }
  },
  stats: () => ({ calls: 0, attempts: 0, retried: {}, gaveUp: 0, failed: 0 }),
}
