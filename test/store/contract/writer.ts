// The parent's side of writer-child.ts: another live process that writes a journal leg of the same
// store, reached by its locator, and that a test can SIGKILL at any point. Every wait is bounded.
import { fork, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import type { CaseProgress } from '../../../src/document/case-progress.js'
import type { JournalOpening } from '../../../src/store/journal.js'
import { compileStoreForChild, type ChildStore } from '../child-store.js'
import type { WriterCommand, WriterReply } from './writer-child.js'

/** How long a writer may take to answer one command (starting node and importing the store included). */
const ANSWER_MS = 15_000

export const WRITER_CHILD = join(import.meta.dirname, 'writer-child.ts')

/** The store and the writer child, compiled once for a whole part of the suite. */
export function compileWriter(): ChildStore {
  return compileStoreForChild([WRITER_CHILD])
}

export interface Writer {
  readonly pid: number
  /** Opens leg `leg` of the run `opening` describes, under the child's own lease. */
  open(opening: Omit<JournalOpening, 'lease'>, leg: number): Promise<void>
  /** Appends the records one by one; resolves when all were appended. */
  append(records: readonly CaseProgress[]): Promise<void>
  /** Sends the records and returns at once; `appended` grows as the child confirms each one. */
  startAppending(records: readonly CaseProgress[]): void
  /** Indexes the child confirmed appended (durable), in the order confirmed. */
  readonly appended: readonly number[]
  /** Resolves once `count` appends are confirmed. */
  confirmed(count: number): Promise<void>
  /** SIGKILLs the child and resolves once it is dead and every reply it sent has been read. */
  kill(): Promise<void>
}

export async function startWriter(compiled: ChildStore, locator: string): Promise<Writer> {
  const child: ChildProcess = fork(compiled.compiled(WRITER_CHILD), [locator], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], cwd: '/' })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const replies: WriterReply[] = []
  const appended: number[] = []
  const waiters = new Set<() => void>()
  child.on('message', (reply: WriterReply) => {
    replies.push(reply)
    if (reply.kind === 'appended') appended.push(reply.index)
    for (const wake of waiters) wake()
  })
  // Dead, and its channel read to the end: no reply of it is still on the way.
  const gone = Promise.all([new Promise<void>((r) => child.once('exit', () => r())), new Promise<void>((r) => child.once('disconnect', () => r()))]).then(() => {
    for (const wake of waiters) wake()
  })
  const dead = (): boolean => child.exitCode !== null || child.signalCode !== null

  /** Waits until `done()` says so; refuses a `failed` reply, a dead child and a slow one. */
  const until = <T>(what: string, done: () => T | undefined): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => settle(new Error(`the writer child did not answer (${what}) within ${ANSWER_MS} ms: ${stderr}`)), ANSWER_MS)
      const settle = (error?: Error, value?: T): void => {
        clearTimeout(timer)
        waiters.delete(check)
        if (error === undefined) resolve(value as T)
        else reject(error)
      }
      const check = (): void => {
        const failed = replies.find((r) => r.kind === 'failed')
        if (failed !== undefined) return settle(new Error(`the writer child failed (${what}): ${failed.name}: ${failed.message}`))
        const value = done()
        if (value !== undefined) return settle(undefined, value)
        if (dead()) settle(new Error(`the writer child died (${what}): ${stderr}`))
      }
      waiters.add(check)
      check()
    })
  const command = (c: WriterCommand): void => {
    child.send(c)
  }
  const replied = (kind: WriterReply['kind'], from: number) => () => (replies.slice(from).some((r) => r.kind === kind) ? true : undefined)

  const pid = await until('start', () => replies.find((r): r is Extract<WriterReply, { kind: 'started' }> => r.kind === 'started')?.pid)
  return {
    pid,
    appended,
    async open(opening, leg) {
      const from = replies.length
      command({ kind: 'open', opening, leg })
      await until('open', replied('opened', from))
    },
    async append(records) {
      const from = replies.length
      command({ kind: 'append', records: [...records] })
      await until('append', replied('done', from))
    },
    startAppending(records) {
      command({ kind: 'append', records: [...records] })
    },
    async confirmed(count) {
      await until(`${count} appends`, () => (appended.length >= count ? true : undefined))
    },
    async kill() {
      if (!dead()) child.kill('SIGKILL')
      await gone
    },
  }
}
