// The journal writer of the Store contract suite, run as a child process (forked, with an IPC
// channel): it opens the store its locator names through openStore, as any front end does, opens
// one journal leg under its own lease, and appends on command. It knows no backend. Every reply is
// handed to the channel before the child does anything else, so what the parent has received is
// what the child had done: an `appended` reply means that append had returned (was durable).
import type { CaseProgress } from '../../../src/document/case-progress.js'
import type { Journal, JournalOpening } from '../../../src/store/journal.js'
import { leaseOfThisProcess } from '../../../src/store/live-writer.js'
import { openStore } from '../../../src/store/open-store.js'

export type WriterCommand = { kind: 'open'; opening: Omit<JournalOpening, 'lease'>; leg: number } | { kind: 'append'; records: CaseProgress[] } | { kind: 'close' }

export type WriterReply =
  | { kind: 'started'; pid: number }
  | { kind: 'opened'; key: string; leg: number }
  | { kind: 'appended'; index: number; case_id: string }
  | { kind: 'done' }
  | { kind: 'closed' }
  | { kind: 'failed'; name: string; message: string }

const send = (reply: WriterReply): Promise<void> =>
  new Promise((resolve, reject) => {
    if (process.send === undefined) throw new Error('the writer child runs forked, with an IPC channel')
    process.send(reply, undefined, {}, (error) => (error === null ? resolve() : reject(error)))
  })

const locator = process.argv[2]
if (locator === undefined) throw new Error('usage: writer-child <store locator>')
const store = openStore({ store: locator, say: () => {} })
let journal: Journal | undefined

async function obey(command: WriterCommand): Promise<void> {
  if (command.kind === 'open') {
    journal = await store.openJournal({ ...command.opening, lease: leaseOfThisProcess() }, command.leg)
    await send({ kind: 'opened', key: journal.key, leg: journal.leg })
  } else if (command.kind === 'append') {
    if (journal === undefined) throw new Error('append before open')
    for (const [index, record] of command.records.entries()) {
      await journal.append(record)
      await send({ kind: 'appended', index, case_id: record.result.case_id })
    }
    await send({ kind: 'done' })
  } else {
    await journal?.close()
    journal = undefined
    await send({ kind: 'closed' })
  }
}

// Commands run one at a time, in the order they came.
let queue = Promise.resolve()
process.on('message', (command: WriterCommand) => {
  queue = queue.then(() =>
    obey(command).catch((error: unknown) => {
      const e = error instanceof Error ? error : new Error(String(error))
      return send({ kind: 'failed', name: e.name, message: e.message })
    }),
  )
})
// The parent is gone: nobody is left to command this writer.
process.on('disconnect', () => process.exit(0))
await send({ kind: 'started', pid: process.pid })
