// Journals left by earlier launches: named on every plain run, chosen by a resume.
import { LiveRunError } from '../../store/errors.js'
import { NoPendingJournalError } from '../errors.js'
import { reviveError } from '../../errors/recognise.js'
import { isDiglineError, type DiglineErrorData } from '../../errors/base.js'
import type { Pending } from '../../store/journal.js'
import type { Store } from '../../store/contract.js'
import { describeWriter, liveLeaseOf } from '../../store/live-writer.js'
import { assertNotRemoved } from '../lifecycle/removed-runs.js'

/** A refusal read from disk as data, raised again under its own name. */
export function raiseRefusal(data: DiglineErrorData): never {
  throw reviveError(data)
}

/** The refusal of a run one of whose legs is held by a live writer, or undefined when none holds. */
export function liveWriterRefusal(pending: Pending): LiveRunError | undefined {
  const live = liveLeaseOf(pending.leases)
  if (live === undefined) return undefined
  return new LiveRunError(
    `run ${pending.key} of suite ${pending.suite} is still being written by ${describeWriter(live)}, whose lease holds (same boot, pid and process start time)`,
    `Let process ${live.lease.pid} finish the run (\`digline pending\` shows when its journal is done), or stop it with \`kill ${live.lease.pid}\` if you mean to abandon that leg; then run \`digline run --resume ${pending.key} --suite ${pending.suite}\`.`,
  )
}

/** Refuses a run one of whose legs is held by a live writer. */
export function assertNoLiveWriter(pending: Pending): void {
  const refusal = liveWriterRefusal(pending)
  if (refusal !== undefined) throw refusal
}

/**
 * The refusal `digline run --resume KEY` would meet for this unfinished journal now, checked in the
 * order the resume checks (removed, unreadable, a live writer), or undefined when it would go ahead.
 */
export async function resumeRefusal(store: Pick<Store, 'removalOf'>, pending: Pending): Promise<DiglineErrorData | undefined> {
  try {
    await assertNotRemoved(store, pending.tenant, pending.suite, pending.key, 'resume')
  } catch (error) {
    if (isDiglineError(error)) return error.toData()
    throw error
  }
  return pending.refusal ?? liveWriterRefusal(pending)?.toData()
}

/** The pending journal KEY of SUITE, ready to resume, or a named refusal. */
export async function findPending(store: Store, tenant: string, suite: string, key: string): Promise<Pending> {
  await assertNotRemoved(store, tenant, suite, key, 'resume')
  const all = await store.pending(tenant, suite)
  const pending = all.find((p) => p.key === key)
  if (pending === undefined || pending.finished) {
    throw new NoPendingJournalError(
      pending === undefined ? `suite ${suite} has no pending journal under key ${key}` : `run ${key} of suite ${suite} was already written; there is nothing to resume`,
      'Run `digline pending` to see what is pending, or start a fresh run with `digline run`.',
    )
  }
  if (pending.refusal !== undefined) raiseRefusal(pending.refusal)
  assertNoLiveWriter(pending)
  return pending
}

/** On a plain run: removes journals that outlived their runs and names the ones still pending. */
export async function notePendingJournals(store: Store, tenant: string, suite: string, say: (line: string) => void): Promise<void> {
  for (const pending of await store.pending(tenant, suite)) {
    if ((await store.removalOf(tenant, suite, pending.key)) !== undefined) {
      say(
        `digline ${suite}: run ${pending.key} was removed, and its journal is left over from an interrupted delete; \`digline delete --suite ${suite} --run ${pending.key}\` finishes it`,
      )
    } else if (pending.refusal !== undefined) {
      say(`digline ${suite}: the journal of run ${pending.key} is kept on disk and not resumable as it is (${pending.refusal.name}: ${pending.refusal.message})`)
    } else if (pending.finished) {
      await store.dropPending(tenant, suite, pending.key)
      say(`digline ${suite}: run ${pending.key} was already written; its leftover journal was removed`)
    } else if (liveLeaseOf(pending.leases) !== undefined) {
      say(`digline ${suite}: run ${pending.key} is being written by ${describeWriter(liveLeaseOf(pending.leases)!)}, with ${pending.done.size} case(s) journaled so far`)
    } else {
      say(`digline ${suite}: run ${pending.key} is pending with ${pending.done.size} case(s) journaled; \`digline run --resume ${pending.key}\` would finish it`)
    }
  }
}
