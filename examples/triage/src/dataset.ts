// Reads the labelled tickets the example ships (one JSON object per line) and refuses a bad line by number.
import { readFileSync } from 'node:fs'
import { isPriority, isQueue, type Priority, type Queue } from './queues.js'

export interface LabelledTicket {
  id: string
  text: string
  queue: Queue
  priority: Priority
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/** Every line of a .jsonl file of labelled tickets, validated; ids must be unique safe segments. */
export function loadTickets(file: string): LabelledTicket[] {
  const lines = readFileSync(file, 'utf8').split('\n')
  const tickets: LabelledTicket[] = []
  const ids = new Set<string>()
  lines.forEach((line, index) => {
    if (line.trim() === '') return
    const where = `${file}:${index + 1}`
    let row: unknown
    try {
      row = JSON.parse(line)
    } catch {
      throw new Error(`${where} is not valid JSON`)
    }
    const { id, text, queue, priority } = (row ?? {}) as Record<string, unknown>
    if (typeof id !== 'string' || !SAFE_ID.test(id)) throw new Error(`${where}: id must match ${SAFE_ID}`)
    if (ids.has(id)) throw new Error(`${where}: id ${id} appears twice`)
    if (typeof text !== 'string' || text.trim() === '') throw new Error(`${where}: text must be a non-empty string`)
    if (!isQueue(queue)) throw new Error(`${where}: unknown queue ${JSON.stringify(queue)}`)
    if (!isPriority(priority)) throw new Error(`${where}: unknown priority ${JSON.stringify(priority)}`)
    ids.add(id)
    tickets.push({ id, text, queue, priority })
  })
  return tickets
}
