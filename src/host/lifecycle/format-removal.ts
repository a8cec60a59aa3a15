// A delete in words. Each line says removed only of what was removed, and a key a reader still
// answers to (another document filed under it) is never reported as gone.
import { join } from 'node:path'
import { describeStore, storeTarget } from '../../store/store-locator.js'
import type { Removal, RemovedRun, RunRef } from '../../store/removal.js'

/** Where a store keeps the removal records of a tenant: a directory of the file store, a table of the team store. */
export function removalRecordsWhere(locator: string, tenant: string): string {
  const target = storeTarget(locator)
  return target.kind === 'file' ? `under ${join(target.root, tenant, 'removed')}/` : `in the digline_removals table of ${describeStore(locator)} (tenant ${tenant})`
}

function what(run: RemovedRun): string {
  const legs = `${run.legs} journal leg${run.legs === 1 ? '' : 's'}`
  if (run.document && run.legs > 0) return `its document and ${legs} removed`
  if (run.document) return 'its document removed'
  if (run.legs > 0) return `${legs} removed (it had no document)`
  return 'nothing of it was left to remove'
}

/** `stillFiled`: `<suite>/<key>` of removed replays whose key a reader still answers to; `recordsWhere`: removalRecordsWhere's words. */
export function describeRemoval(removal: Removal, asked: RunRef, stillFiled: ReadonlySet<string> = new Set(), recordsWhere = `under .digline/${asked.tenant}/removed/`): string[] {
  const { tenant, suite, key } = asked
  const lines: string[] = []
  if (removal.nothing) {
    lines.push(
      removal.alreadyRemovedAt === undefined
        ? `There is no run ${key} in suite ${suite} of tenant ${tenant} to remove: no document, journal leg or replay is filed under that key. Nothing was removed.`
        : `Run ${key} of suite ${suite} (tenant ${tenant}) was already removed at ${removal.alreadyRemovedAt}; nothing is filed under it now, and nothing was removed.`,
    )
  } else {
    lines.push(
      removal.alreadyRemovedAt === undefined
        ? `Deleted run ${key} of suite ${suite} (tenant ${tenant}) and its replays, leaves first:`
        : `Finished the delete of run ${key} of suite ${suite} (tenant ${tenant}) begun at ${removal.alreadyRemovedAt}, leaves first:`,
    )
    for (const replay of removal.replays) {
      lines.push(`  replay ${replay.ref.key} of suite ${replay.ref.suite}: ${what(replay)}`)
      if (stillFiled.has(`${replay.ref.suite}/${replay.ref.key}`)) {
        lines.push(`    another document is still filed under ${replay.ref.key} in suite ${replay.ref.suite}; it is not a replay of ${key}, and it was not removed`)
      }
    }
    lines.push(`  run ${key} of suite ${suite}: ${what(removal.run)}`)
    lines.push(`A removal record for each run is kept ${recordsWhere}: no writer files these keys again.`)
  }
  if (removal.unread === 1) {
    lines.push(`1 document in tenant ${tenant} could not be read. Whether it was a replay of ${key} is not known, and it was not removed.`)
  } else if (removal.unread > 1) {
    lines.push(`${removal.unread} documents in tenant ${tenant} could not be read. Whether any of them was a replay of ${key} is not known, and none of them was removed.`)
  }
  return lines
}
