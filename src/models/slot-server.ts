// The launch-wide in-flight cap: a small server on a Unix socket that the plugin starts in Vitest's
// main process. Every worker's adapters take a slot from it before each attempt and give it back
// after, so a cap holds across every suite and worker of the launch. One JSON message per line:
//   → { t: 'acquire', id, pool, cap, attempt }   ← { t: 'granted', id }
//   → { t: 'release', id, outcome }               ← { t: 'released', id }
//   → { t: 'cancel', id }                         ← { t: 'released', id }
// A worker that goes away gives back everything it held.
import { rmSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { makeTempDir } from '../suite/temp-dir.js'
import { join } from 'node:path'
import { SlotBook, type AttemptOutcome } from './slot-book.js'

/** The environment variable through which workers find the slot server. */
export const SLOTS_ENV = 'DIGLINE_MODEL_SLOTS'

export interface SlotMessage {
  t: 'acquire' | 'release' | 'cancel' | 'granted' | 'released'
  id: number
  pool?: string
  cap?: number
  attempt?: number
  outcome?: AttemptOutcome
}

export interface SlotServer {
  path: string
  book: SlotBook
  /** Resolves once the server accepts connections. */
  ready: Promise<void>
  close(): void
}

export function startSlotServer(): SlotServer {
  const dir = makeTempDir('digline-slots-')
  const path = join(dir, 's.sock')
  const book = new SlotBook()
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    // The server never keeps Vitest's main process alive, nor does a worker's connection.
    socket.unref()
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    serve(socket, book)
  })
  const ready = new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(path, () => {
      server.off('error', reject)
      resolve()
    })
  })
  server.unref()
  let closed = false
  const cleanup = (): void => rmSync(dir, { recursive: true, force: true })
  process.once('exit', cleanup)
  return {
    path,
    book,
    ready,
    close() {
      if (closed) return
      closed = true
      server.close()
      for (const socket of sockets) socket.destroy()
      cleanup()
      process.off('exit', cleanup)
    },
  }
}

function serve(socket: Socket, book: SlotBook): void {
  const tickets = new Map<number, number>()
  const send = (message: SlotMessage): void => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`)
  }
  let buffered = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    buffered += chunk
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end)
      buffered = buffered.slice(end + 1)
      let message: SlotMessage
      try {
        message = JSON.parse(line) as SlotMessage
      } catch {
        socket.destroy()
        return
      }
      handle(message)
    }
  })
  const handle = (m: SlotMessage): void => {
    if (m.t === 'acquire' && typeof m.pool === 'string' && typeof m.cap === 'number') {
      const ticket = book.acquire(m.pool, m.cap, m.attempt ?? 1, () => send({ t: 'granted', id: m.id }))
      tickets.set(m.id, ticket)
    } else if (m.t === 'release' || m.t === 'cancel') {
      const ticket = tickets.get(m.id)
      tickets.delete(m.id)
      if (ticket !== undefined) {
        if (m.t === 'cancel') book.cancel(ticket)
        else book.release(ticket, m.outcome ?? 'ok')
      }
      send({ t: 'released', id: m.id })
    }
  }
  const dropAll = (): void => {
    for (const ticket of tickets.values()) book.cancel(ticket)
    tickets.clear()
  }
  socket.on('close', dropAll)
  socket.on('error', () => socket.destroy())
}
