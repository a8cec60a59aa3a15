// Where an adapter takes its slot before each attempt: from the launch's slot server when the
// plugin started one (DIGLINE_MODEL_SLOTS), else from a book kept in this process. A server that
// cannot be reached or goes away is replaced by the local book, said once on stderr.
import { createConnection, type Socket } from 'node:net'
import { SlotBook, type AttemptOutcome } from './slot-book.js'
import { SLOTS_ENV, type SlotMessage } from './slot-server.js'

export interface SlotLease {
  release(outcome: AttemptOutcome): Promise<void>
}

export interface Slots {
  acquire(pool: string, cap: number, attempt: number, signal?: AbortSignal): Promise<SlotLease>
  /** The local book (the remote one lives in the main process). */
  readonly book: SlotBook
}

class LocalSlots implements Slots {
  readonly book = new SlotBook()

  acquire(pool: string, cap: number, attempt: number, signal?: AbortSignal): Promise<SlotLease> {
    signal?.throwIfAborted()
    return new Promise((resolve, reject) => {
      const lease: SlotLease = { release: async (outcome) => this.book.release(ticket, outcome) }
      const onAbort = (): void => {
        this.book.cancel(ticket)
        reject(signal!.reason)
      }
      const ticket = this.book.acquire(pool, cap, attempt, () => {
        signal?.removeEventListener('abort', onAbort)
        resolve(lease)
      })
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }
}

interface Waiting {
  resolve(): void
  reject(error: unknown): void
}

class RemoteSlots implements Slots {
  private socket: Socket | undefined
  private broken = false
  private nextId = 1
  private buffered = ''
  private readonly grants = new Map<number, Waiting>()
  private readonly releases = new Map<number, Waiting>()

  constructor(
    private readonly path: string,
    private readonly local: LocalSlots,
  ) {}

  get book(): SlotBook {
    return this.local.book
  }

  async acquire(pool: string, cap: number, attempt: number, signal?: AbortSignal): Promise<SlotLease> {
    signal?.throwIfAborted()
    if (this.broken) return this.local.acquire(pool, cap, attempt, signal)
    const id = this.nextId++
    try {
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          this.grants.delete(id)
          this.send({ t: 'cancel', id })
          this.idle()
          reject(signal!.reason)
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        this.grants.set(id, {
          resolve: () => {
            signal?.removeEventListener('abort', onAbort)
            resolve()
          },
          reject: (error) => {
            signal?.removeEventListener('abort', onAbort)
            reject(error)
          },
        })
        this.send({ t: 'acquire', id, pool, cap, attempt })
      })
    } catch (error) {
      if (signal?.aborted) throw error
      return this.local.acquire(pool, cap, attempt, signal)
    }
    return {
      release: (outcome) =>
        new Promise<void>((resolve) => {
          if (this.broken) return resolve()
          this.releases.set(id, { resolve, reject: () => resolve() })
          this.send({ t: 'release', id, outcome })
        }),
    }
  }

  private send(message: SlotMessage): void {
    const socket = this.connection()
    socket.ref()
    socket.write(`${JSON.stringify(message)}\n`)
  }

  private connection(): Socket {
    if (this.socket !== undefined) return this.socket
    const socket = createConnection(this.path)
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => this.receive(chunk))
    socket.on('error', () => this.fail())
    socket.on('close', () => this.fail())
    this.socket = socket
    return socket
  }

  private receive(chunk: string): void {
    this.buffered += chunk
    for (let end = this.buffered.indexOf('\n'); end >= 0; end = this.buffered.indexOf('\n')) {
      const message = JSON.parse(this.buffered.slice(0, end)) as SlotMessage
      this.buffered = this.buffered.slice(end + 1)
      const table = message.t === 'granted' ? this.grants : this.releases
      const waiting = table.get(message.id)
      table.delete(message.id)
      waiting?.resolve()
    }
    this.idle()
  }

  /** Lets the process exit while nothing waits on the server. */
  private idle(): void {
    if (this.grants.size === 0 && this.releases.size === 0) this.socket?.unref()
  }

  private fail(): void {
    if (this.broken) return
    this.broken = true
    process.stderr.write(`digline: the in-flight slot server (${this.path}) cannot be reached; calls are capped per process from now on\n`)
    const gone = new Error('the in-flight slot server is gone')
    for (const waiting of [...this.grants.values(), ...this.releases.values()]) waiting.reject(gone)
    this.grants.clear()
    this.releases.clear()
    this.socket?.destroy()
  }
}

const SLOTS = Symbol.for('digline.modelSlots')
type WithSlots = typeof globalThis & { [SLOTS]?: { path: string | undefined; slots: Slots } }

/**
 * The process's slots; kept on globalThis because Vitest may evaluate this module once per test
 * file in the same worker, and every copy must share one connection and one local book.
 */
export function inFlightSlots(env: NodeJS.ProcessEnv = process.env): Slots {
  const g = globalThis as WithSlots
  const path = env[SLOTS_ENV] || undefined
  if (g[SLOTS] === undefined || g[SLOTS].path !== path) {
    const local = new LocalSlots()
    g[SLOTS] = { path, slots: path === undefined ? local : new RemoteSlots(path, local) }
  }
  return g[SLOTS].slots
}
