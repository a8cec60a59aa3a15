// A second node process that finishes runs of the team store on command, late: it opens a journal
// leg of each run and stops renewing its lease at once (a writer stalled past its lease: a pause, a
// partition), so a delete may go ahead; on `go` it writes the run document and completes the journal,
// as measureRun does at the end of a run. It reports what happened and when its document committed.
import { fork, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { RunDocument } from '../../../../src/document/schema.js'
import type { JournalOpening } from '../../../../src/store/journal.js'
import { compileStoreForChild } from '../../child-store.js'

export interface Finished {
  round: number
  /** `written`, or the name of the refusal the writer got. */
  outcome: string
  /** Whether the document's INSERT committed (the delete may have removed it since). */
  published: boolean
  /** Epoch milliseconds right after the document committed, when it did. */
  publishedAt: number | undefined
}

const SCRIPT = `
const { PostgresStore } = await import(process.argv[2])
const now = () => performance.timeOrigin + performance.now()
// a lease of 1 ms that nobody renews: expired as soon as the leg is open
const store = new PostgresStore({ url: process.argv[3], leaseTtlMs: 1 })
const open = new Map()
process.on('message', async (msg) => {
  if (msg.kind === 'prepare') {
    const leg = await store.openJournal({ ...msg.header, lease: { ...msg.header.lease, pid: process.pid, start_time: null } }, 1)
    leg.stopHeartbeat()
    open.set(msg.round, leg)
    process.send({ kind: 'ready', round: msg.round })
  } else if (msg.kind === 'go') {
    const leg = open.get(msg.round)
    open.delete(msg.round)
    const until = now() + msg.jitterMs
    while (now() < until) {}
    let outcome = 'written'
    let published = false
    let publishedAt
    try {
      await store.writeRun(msg.doc)
      publishedAt = now()
      published = true
      await leg.complete()
    } catch (error) {
      outcome = error.name
      await leg.close()
    }
    process.send({ kind: 'finished', round: msg.round, outcome, published, publishedAt })
  } else if (msg.kind === 'exit') {
    await store.end()
    process.exit(0)
  }
})
process.send({ kind: 'started' })
`

export interface LateWriter {
  prepare(round: number, header: JournalOpening): Promise<void>
  /** Starts the writer on the round after a busy wait of `jitterMs`; returns when it has finished. */
  go(round: number, doc: RunDocument, jitterMs: number): Promise<Finished>
  stop(): void
}

export async function startLateWriter(url: string): Promise<LateWriter> {
  const compiled = compileStoreForChild()
  const script = join(dirname(compiled.storeModule), 'pg-late-writer.mjs')
  writeFileSync(script, SCRIPT)
  const child: ChildProcess = fork(script, [compiled.storeModule, url], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const waiting = new Map<string, (msg: Finished & { kind: string }) => void>()
  child.on('message', (msg: Finished & { kind: string }) => {
    const key = msg.kind === 'started' ? 'started' : `${msg.kind}:${msg.round}`
    waiting.get(key)?.(msg)
    waiting.delete(key)
  })
  const next = (key: string) => new Promise<Finished & { kind: string }>((resolve) => waiting.set(key, resolve))
  await next('started')
  return {
    async prepare(round, header) {
      const ready = next(`ready:${round}`)
      child.send({ kind: 'prepare', round, header })
      await ready
    },
    async go(round, doc, jitterMs) {
      const finished = next(`finished:${round}`)
      child.send({ kind: 'go', round, doc, jitterMs })
      return finished
    },
    stop() {
      child.send({ kind: 'exit' })
      compiled.cleanup()
    },
  }
}
