// The in-flight cap's bookkeeping and its server: a cap holds across clients, waiters are served in
// order, and a client that goes away gives its slots back.
import { createConnection, type Socket } from 'node:net'
import { expect, test } from 'vitest'
import { SlotBook, describePool } from '../../../src/models/slot-book.js'
import { startSlotServer } from '../../../src/models/slot-server.js'

test('the book grants up to the cap, queues the rest in order, and counts what each attempt came to', () => {
  const book = new SlotBook()
  const granted: string[] = []
  const t = ['a', 'b', 'c', 'd'].map((name, i) => book.acquire('p', 2, i === 3 ? 2 : 1, () => granted.push(name)))
  expect(granted).toEqual(['a', 'b'])
  book.release(t[0]!, 'retry:429')
  expect(granted).toEqual(['a', 'b', 'c'])
  book.cancel(t[3]!)
  book.release(t[1]!, 'ok')
  book.release(t[2]!, 'gave-up')
  expect(granted).toEqual(['a', 'b', 'c'])
  const [pool] = book.summary()
  expect(pool).toEqual({ pool: 'p', cap: 2, peak: 2, calls: 3, attempts: 4, waited: 2, retried: { '429': 1 }, gaveUp: 1, failed: 0 })
  expect(describePool(pool!)).toBe(
    'p: 3 calls, 4 attempts (1 retry: 429 ×1), 1 gave up after the retry ceiling, 0 failed without retry; at most 2 in flight (cap 2), 2 attempts waited for a slot',
  )
})

function client(path: string) {
  const socket: Socket = createConnection(path)
  socket.setEncoding('utf8')
  const seen: string[] = []
  let buffered = ''
  socket.on('data', (d: string) => {
    buffered += d
    const lines = buffered.split('\n')
    buffered = lines.pop()!
    for (const line of lines) {
      const m = JSON.parse(line) as { t: string; id: number }
      seen.push(`${m.t}:${m.id}`)
    }
  })
  return { socket, seen, send: (m: object) => socket.write(`${JSON.stringify(m)}\n`) }
}

test('the server caps across connections and frees the slots of a connection that closes', async () => {
  const server = startSlotServer()
  await server.ready
  try {
    const a = client(server.path)
    const b = client(server.path)
    a.send({ t: 'acquire', id: 1, pool: 'p', cap: 2, attempt: 1 })
    a.send({ t: 'acquire', id: 2, pool: 'p', cap: 2, attempt: 1 })
    await expect.poll(() => a.seen).toEqual(['granted:1', 'granted:2'])
    b.send({ t: 'acquire', id: 1, pool: 'p', cap: 2, attempt: 1 })
    b.send({ t: 'acquire', id: 2, pool: 'p', cap: 2, attempt: 1 })
    a.send({ t: 'release', id: 1, outcome: 'ok' })
    await expect.poll(() => b.seen).toEqual(['granted:1'])
    a.socket.destroy()
    await expect.poll(() => b.seen).toEqual(['granted:1', 'granted:2'])
    expect(server.book.summary()[0]).toMatchObject({ peak: 2, attempts: 4, waited: 2 })
    b.socket.destroy()
  } finally {
    server.close()
  }
})
