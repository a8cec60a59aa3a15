// The run delete as a use case: the store removes the run and its replays (docs/delete.md); this adds
// what the sentence about it needs to be true.
import type { Store } from '../../store/contract.js'
import type { Removal } from '../../store/removal.js'

export interface DeletedRun {
  removal: Removal
  /** `suite/key` of removed replays whose key a reader still answers to: another document is filed under it. */
  stillFiled: Set<string>
}

/** `localCache`: the file store that keeps watch mode's answers beside a team store (cache-store.ts); it forgets the removed runs' answers too. */
export async function deleteRun(store: Store, tenant: string, suite: string, key: string, localCache?: Store): Promise<DeletedRun> {
  const removal = await store.deleteRun(tenant, suite, key)
  if (localCache !== undefined) for (const run of [removal.run, ...removal.replays]) await localCache.forgetRunAnswers(tenant, run.ref.suite, run.ref.key)
  const stillFiled = new Set<string>()
  for (const replay of removal.replays) {
    if (!replay.document) continue
    const readable = await store.readRun(tenant, replay.ref.suite, replay.ref.key).then(
      () => true,
      () => false,
    )
    if (readable) stillFiled.add(`${replay.ref.suite}/${replay.ref.key}`)
  }
  return { removal, stillFiled }
}
