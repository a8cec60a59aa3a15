// A second node process that finishes runs on command: it holds a journal leg of each run (written
// as from another host, which a delete cannot ask about), and on `go` writes the run document and
// completes the journal, as measureRun does at the end of a run. It reports what happened and when
// its document was published.
import { fork, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { RunDocument } from '../../src/document/schema.js'
import type { JournalOpening } from '../../src/store/journal.js'
import { compileStoreForChild } from './child-store.js'

export interface Finished {
  round: number
  /** `written`, or the name of the refusal the writer got. */
  outcome: string
  /** Whether the document's rename landed (it may have been taken back after). */
  published: boolean
  /** Epoch milliseconds right after the rename, when it landed. */
  publishedAt: number | undefined
}

const SCRIPT = `
const { FileResultStore, nodeFsLayer } = await import(process.argv[2])
const { realpathSync } = await import('node:fs')
// the store reaches paths through held-open directories (/proc/self/fd/N/name)
const logical = (p) => { const m = /^\\/proc\\/self\\/fd\\/(\\d+)(\\/.*)?$/.exec(p); return m === null ? p : realpathSync('/proc/self/fd/' + m[1]) + (m[2] ?? '') }
const now = () => performance.timeOrigin + performance.now()
const open = new Map()
let current
const store = new FileResultStore({
  root: process.argv[3],
  fs: { ...nodeFsLayer, rename: async (from, to) => {
    await nodeFsLayer.rename(from, to)
    if (current !== undefined && logical(to) === current.target) { current.published = true; current.publishedAt = now() }
  } },
})
process.on('message', async (msg) => {
  if (msg.kind === 'prepare') {
    open.set(msg.round, await store.openJournal({ ...msg.header, lease: { ...msg.header.lease, pid: process.pid, start_time: null } }, 1))
    process.send({ kind: 'ready', round: msg.round })
  } else if (msg.kind === 'go') {
    const leg = open.get(msg.round)
    open.delete(msg.round)
    current = { target: msg.target, published: false, publishedAt: undefined }
    const until = now() + msg.jitterMs
    while (now() < until) {}
    let outcome = 'written'
    try {
      await store.writeRun(msg.doc)
      await leg.complete()
    } catch (error) {
      outcome = error.name
      await leg.close()
    }
    process.send({ kind: 'finished', round: msg.round, outcome, published: current.published, publishedAt: current.publishedAt })
  } else if (msg.kind === 'exit') process.exit(0)
})
process.send({ kind: 'started' })
`

export interface LateWriter {
  prepare(round: number, header: JournalOpening): Promise<void>
  /** Starts the writer on the round, returns when it has finished. */
  go(round: number, doc: RunDocument, target: string, jitterMs: number): Promise<Finished>
  stop(): void
}

export async function startLateWriter(root: string): Promise<LateWriter> {
  const compiled = compileStoreForChild()
  const script = join(dirname(compiled.storeModule), 'late-writer.mjs')
  writeFileSync(script, SCRIPT)
  const child: ChildProcess = fork(script, [compiled.storeModule, root], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
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
    async go(round, doc, target, jitterMs) {
      const finished = next(`finished:${round}`)
      child.send({ kind: 'go', round, doc, target, jitterMs })
      return finished
    },
    stop() {
      child.send({ kind: 'exit' })
      compiled.cleanup()
    },
  }
}
