// A deterministic support assistant for order questions: it reads the conversation so far and
// answers the last user message from rules and a small order table, as a chat model would.
export interface Message {
  role: 'user' | 'assistant'
  content: string
}

const ORDERS: Record<string, { state: string; refundable: boolean }> = {
  '1001': { state: 'delivered', refundable: true },
  '1002': { state: 'in transit', refundable: false },
  '1003': { state: 'delivered', refundable: true },
}

/** The order number mentioned last in the conversation, if any. */
function orderOf(messages: readonly Message[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const found = messages[i]!.content.match(/\b(\d{4})\b/)
    if (found) return found[1]
  }
  return undefined
}

export function answer(messages: readonly Message[]): string {
  const last = messages[messages.length - 1]!.content.toLowerCase()
  const id = orderOf(messages)
  const order = id === undefined ? undefined : ORDERS[id]
  if (/thank|bye/.test(last)) return 'You are welcome. Goodbye!'
  if (id === undefined) return 'Hello! What is your order number?'
  if (order === undefined) return `I cannot find order ${id}. Could you check the number?`
  if (/refund|money back/.test(last)) {
    return order.refundable ? `Refund issued for order ${id}.` : `Order ${id} is ${order.state}; it can be refunded once it is delivered.`
  }
  if (/where|status|late/.test(last)) return `Order ${id} is ${order.state}.`
  return `Order ${id} is ${order.state}. Can I help with a refund or anything else?`
}
